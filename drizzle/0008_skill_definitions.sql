CREATE TABLE `skill_definitions` (
	`id` text PRIMARY KEY NOT NULL,
	`definition` text NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `skill_runs` ADD `error` text;--> statement-breakpoint
CREATE INDEX `skill_runs_skill_started` ON `skill_runs` (`skill_id`,`started_at`);