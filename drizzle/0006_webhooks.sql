CREATE TABLE `webhook_deliveries` (
	`slot` integer PRIMARY KEY NOT NULL,
	`id` integer NOT NULL,
	`received_at` integer NOT NULL,
	`kind` text NOT NULL,
	`mapping` text NOT NULL,
	`status` integer NOT NULL,
	`matched` integer,
	`event_id` text,
	`turn_id` text,
	`duration_ms` integer NOT NULL,
	`payload` text,
	`payload_truncated` integer NOT NULL,
	`headers` text NOT NULL,
	`error` text,
	`rerun_of` integer
);
--> statement-breakpoint
CREATE TABLE `webhook_mappings` (
	`name` text PRIMARY KEY NOT NULL,
	`match` text NOT NULL,
	`message` text NOT NULL,
	`session` text,
	`model` text,
	`agent` text,
	`delivery` text NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `webhook_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`hash` text NOT NULL,
	`prefix` text NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	`rotated_at` integer,
	`last_used_at` integer,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_tokens_name_unique` ON `webhook_tokens` (`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_tokens_hash_unique` ON `webhook_tokens` (`hash`);