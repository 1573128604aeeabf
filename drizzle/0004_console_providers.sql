CREATE TABLE `console_providers` (
	`name` text PRIMARY KEY NOT NULL,
	`base_url` text NOT NULL,
	`model` text,
	`api_key` text,
	`created_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
