#!/usr/bin/env node
// The `berth` command (package.json `bin`), run by the Node that runs Berth (Node 24 strips types).
import { main } from '../src/cli/berth.ts';

process.exitCode = main(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text)
});
