CREATE TABLE `builds` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`workspace_name` text NOT NULL,
	`build_file` text NOT NULL,
	`tag` text NOT NULL,
	`engine` text NOT NULL,
	`target` text,
	`user_id` text,
	`user_email` text,
	`started_at` integer NOT NULL,
	`ended_at` integer,
	`status` text NOT NULL,
	`error` text,
	`failed_step` integer,
	`failed_line` integer,
	`image_id` text,
	`log` text DEFAULT '' NOT NULL,
	`log_truncated` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE INDEX `builds_started_idx` ON `builds` (`started_at`);--> statement-breakpoint
CREATE INDEX `builds_workspace_idx` ON `builds` (`workspace_id`);--> statement-breakpoint
CREATE TABLE `workspaces` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `workspaces_name_unique` ON `workspaces` (`name`);