CREATE TABLE `session_summaries` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`from_seq` integer NOT NULL,
	`to_seq` integer NOT NULL,
	`message_count` integer NOT NULL,
	`summary` text NOT NULL,
	`method` text NOT NULL,
	`model` text,
	`trigger` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `chat_sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `session_summaries_session` ON `session_summaries` (`session_id`,`to_seq`);--> statement-breakpoint
CREATE TABLE `outbound_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`delivery_id` text NOT NULL,
	`at` integer NOT NULL,
	`status` integer,
	`error` text,
	`duration_ms` integer NOT NULL,
	`trigger` text NOT NULL,
	FOREIGN KEY (`delivery_id`) REFERENCES `outbound_deliveries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `outbound_attempts_delivery` ON `outbound_attempts` (`delivery_id`,`at`);--> statement-breakpoint
CREATE TABLE `outbound_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`agent_name` text NOT NULL,
	`endpoint_id` text NOT NULL,
	`url` text NOT NULL,
	`event` text NOT NULL,
	`turn_id` text NOT NULL,
	`payload` text NOT NULL,
	`state` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_at` integer,
	`last_error` text,
	`created_at` integer NOT NULL,
	`delivered_at` integer
);
--> statement-breakpoint
CREATE INDEX `outbound_deliveries_due` ON `outbound_deliveries` (`state`,`next_at`);--> statement-breakpoint
CREATE INDEX `outbound_deliveries_agent` ON `outbound_deliveries` (`agent_name`,`created_at`);--> statement-breakpoint
CREATE TABLE `outbound_webhooks` (
	`id` text PRIMARY KEY NOT NULL,
	`agent_name` text NOT NULL,
	`url` text NOT NULL,
	`secret` text NOT NULL,
	`events` text NOT NULL,
	`allow_private` integer DEFAULT false NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `outbound_webhooks_agent` ON `outbound_webhooks` (`agent_name`);--> statement-breakpoint
ALTER TABLE `messages` ADD `compacted_by` text;--> statement-breakpoint
ALTER TABLE `turns` ADD `credential` text;