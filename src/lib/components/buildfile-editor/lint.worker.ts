/** Lints build files off the main thread: one message in ({id, source, options}), one out. */
import { lintBuildFile, type LintOptions } from '$lib/buildfile/lint';

self.onmessage = (event: MessageEvent<{ id: number; source: string; options: LintOptions }>) => {
  const { id, source, options } = event.data;
  self.postMessage({ id, diagnostics: lintBuildFile(source, options).diagnostics });
};
