CREATE TABLE `console_engines` (
	`name` text PRIMARY KEY NOT NULL,
	`host` text NOT NULL,
	`port` integer NOT NULL,
	`ca_file` text,
	`cert_file` text NOT NULL,
	`key_file` text NOT NULL,
	`uploaded` integer NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL
);
