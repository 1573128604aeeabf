CREATE TABLE `agents` (
	`name` text PRIMARY KEY NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`provider` text NOT NULL,
	`model` text,
	`system_prompt` text,
	`skills` text NOT NULL,
	`heartbeat_ms` integer NOT NULL,
	`channel` text,
	`disabled` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `chat_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`agent_name` text NOT NULL,
	`key` text NOT NULL,
	`summary` text,
	`compacted_messages` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `chat_sessions_agent_key` ON `chat_sessions` (`agent_name`,`key`);--> statement-breakpoint
CREATE INDEX `chat_sessions_updated` ON `chat_sessions` (`updated_at`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`seq` integer NOT NULL,
	`role` text NOT NULL,
	`content` text NOT NULL,
	`turn_id` text,
	`channel` text,
	`user_id` text,
	`tokens` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `chat_sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `messages_session_seq` ON `messages` (`session_id`,`seq`);--> statement-breakpoint
CREATE INDEX `messages_created` ON `messages` (`created_at`);--> statement-breakpoint
CREATE TABLE `system_events` (
	`id` text PRIMARY KEY NOT NULL,
	`agent_name` text NOT NULL,
	`state` text NOT NULL,
	`text` text NOT NULL,
	`metadata` text,
	`source` text NOT NULL,
	`turn_id` text,
	`created_at` integer NOT NULL,
	`processed_at` integer
);
--> statement-breakpoint
CREATE INDEX `system_events_state_agent` ON `system_events` (`state`,`agent_name`,`created_at`);--> statement-breakpoint
CREATE TABLE `turns` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`agent_name` text NOT NULL,
	`state` text NOT NULL,
	`source` text NOT NULL,
	`input` text NOT NULL,
	`model` text,
	`channel` text,
	`user_id` text,
	`context` text,
	`delivery` text DEFAULT 'none' NOT NULL,
	`message_id` text,
	`result` text,
	`error` text,
	`prompt_tokens` integer DEFAULT 0 NOT NULL,
	`completion_tokens` integer DEFAULT 0 NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`queued_at` integer NOT NULL,
	`started_at` integer,
	`finished_at` integer
);
--> statement-breakpoint
CREATE INDEX `turns_state_agent` ON `turns` (`state`,`agent_name`,`queued_at`);--> statement-breakpoint
CREATE INDEX `turns_queued` ON `turns` (`queued_at`);--> statement-breakpoint
CREATE TABLE `skill_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`skill_id` text NOT NULL,
	`params` text NOT NULL,
	`status` text NOT NULL,
	`exit_code` integer,
	`output` text,
	`logs` text,
	`trigger` text NOT NULL,
	`actor` text,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	`duration_ms` integer
);
--> statement-breakpoint
CREATE INDEX `skill_runs_started` ON `skill_runs` (`started_at`);--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`hash` text NOT NULL,
	`prefix` text NOT NULL,
	`role` text NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_name_unique` ON `api_keys` (`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash_unique` ON `api_keys` (`hash`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`key` text PRIMARY KEY NOT NULL,
	`status` integer NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `request_counts` (
	`id` text PRIMARY KEY NOT NULL,
	`day` text NOT NULL,
	`interface` text NOT NULL,
	`route` text NOT NULL,
	`status` integer NOT NULL,
	`token` text NOT NULL,
	`count` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `rpc_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`hash` text NOT NULL,
	`prefix` text NOT NULL,
	`permissions` text NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	`rotated_at` integer,
	`last_used_at` integer,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `rpc_tokens_name_unique` ON `rpc_tokens` (`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `rpc_tokens_hash_unique` ON `rpc_tokens` (`hash`);