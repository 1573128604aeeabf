CREATE TABLE `event_slices` (
	`id` integer PRIMARY KEY NOT NULL,
	`agent_name` text NOT NULL,
	`first_rowid` integer NOT NULL,
	`last_rowid` integer NOT NULL,
	`count` integer NOT NULL,
	`state` text NOT NULL,
	`turn_id` text,
	`processed_at` integer
);
--> statement-breakpoint
CREATE INDEX `event_slices_agent` ON `event_slices` (`agent_name`,`first_rowid`);--> statement-breakpoint
CREATE INDEX `event_slices_processing` ON `event_slices` (`turn_id`) WHERE "event_slices"."state" = 'processing';--> statement-breakpoint
CREATE INDEX `event_slices_requeued` ON `event_slices` (`agent_name`,`first_rowid`) WHERE "event_slices"."state" = 'queued';--> statement-breakpoint
DROP INDEX `system_events_state_agent`;--> statement-breakpoint
CREATE INDEX `system_events_agent` ON `system_events` (`agent_name`);--> statement-breakpoint
-- Events a turn had taken: done with a turn that completed or is still to run (it carries them;
-- should it fail after the upgrade, they stay done), queued again otherwise.
UPDATE `system_events` SET `state` = CASE WHEN `turn_id` IN
    (SELECT `id` FROM `turns` WHERE `state` IN ('queued', 'running', 'completed')) THEN 'done' ELSE 'queued' END,
  `turn_id` = CASE WHEN `turn_id` IN
    (SELECT `id` FROM `turns` WHERE `state` IN ('queued', 'running', 'completed')) THEN `turn_id` END,
  `processed_at` = CASE WHEN `turn_id` IN
    (SELECT `id` FROM `turns` WHERE `state` IN ('queued', 'running', 'completed'))
    THEN CAST(strftime('%s', 'now') AS INTEGER) * 1000 END
  WHERE `state` = 'processing';--> statement-breakpoint
INSERT INTO `event_slices` (`agent_name`, `first_rowid`, `last_rowid`, `count`, `state`)
  SELECT q.`agent_name`, min(q.rowid), m.`top`, count(*), 'queued' FROM `system_events` q
  JOIN (SELECT `agent_name`, max(rowid) `top` FROM `system_events` WHERE `state` != 'queued' GROUP BY `agent_name`) m
    ON m.`agent_name` = q.`agent_name`
  WHERE q.`state` = 'queued' AND q.rowid < m.`top` GROUP BY q.`agent_name`;--> statement-breakpoint
INSERT INTO `event_slices` (`agent_name`, `first_rowid`, `last_rowid`, `count`, `state`)
  SELECT `agent_name`, max(rowid), max(rowid), 0, 'done' FROM `system_events` e WHERE `state` != 'queued'
  AND NOT EXISTS (SELECT 1 FROM `event_slices` s WHERE s.`agent_name` = e.`agent_name`) GROUP BY `agent_name`;--> statement-breakpoint
CREATE VIEW `system_event_states` AS
  SELECT e.rowid AS `rid`, e.`id`, e.`agent_name`, e.`text`, e.`metadata`, e.`source`, e.`created_at`,
    CASE WHEN s.`id` IS NULL THEN e.`state` ELSE s.`state` END AS `state`,
    CASE WHEN s.`id` IS NULL THEN e.`turn_id` ELSE s.`turn_id` END AS `turn_id`,
    CASE WHEN s.`id` IS NULL THEN e.`processed_at` ELSE s.`processed_at` END AS `processed_at`
  FROM `system_events` e
  LEFT JOIN `event_slices` s ON e.`state` = 'queued' AND s.`id` = (
    SELECT x.`id` FROM `event_slices` x WHERE x.`agent_name` = e.`agent_name` AND x.`first_rowid` <= e.rowid
    ORDER BY x.`first_rowid` DESC LIMIT 1) AND s.`last_rowid` >= e.rowid;
