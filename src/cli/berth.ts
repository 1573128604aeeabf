/**
 * The `berth` command line: a table of subcommands, each a function from arguments to an exit
 * code (0 done, 1 the input is refused, 2 a usage or file error), writing through `io`.
 */
import { buildfileDump } from './buildfile-dump.ts';
import { buildfileLint } from './buildfile-lint.ts';

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

type Command = (args: string[], io: Io) => number;

const COMMANDS: Record<string, Record<string, { run: Command; usage: string }>> = {
  buildfile: {
    dump: { run: buildfileDump, usage: 'berth buildfile dump FILE' },
    lint: { run: buildfileLint, usage: 'berth buildfile lint FILE [--format json]' }
  }
};

function usage(io: Io): number {
  const lines = Object.values(COMMANDS).flatMap((group) =>
    Object.values(group).map((c) => `  ${c.usage}`)
  );
  io.err(`Usage:\n${lines.join('\n')}\n`);
  return 2;
}

export function main(argv: string[], io: Io): number {
  const [group, name, ...rest] = argv;
  const command = group !== undefined && name !== undefined ? COMMANDS[group]?.[name] : undefined;
  if (!command) return usage(io);
  return command.run(rest, io);
}
