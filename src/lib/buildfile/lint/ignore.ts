/**
 * A .dockerignore matcher as moby/patternmatcher reads one: a pattern per line, `#` comments,
 * paths cleaned and made relative, `*` and `?` within a path element, `**` across elements,
 * `[…]` classes, `!` re-including; the last matching pattern decides, and a path is excluded
 * when it or one of its parent directories is (MatchesOrParentMatches).
 */

interface Pattern {
  exclusion: boolean;
  regex: RegExp;
}

export interface IgnoreMatcher {
  ignores(path: string): boolean;
}

export function parseIgnoreFile(text: string): IgnoreMatcher {
  const patterns: Pattern[] = [];
  for (const line of text.split(/\r?\n/)) {
    let p = line.trim();
    if (p === '' || p.startsWith('#')) continue;
    const exclusion = p.startsWith('!');
    if (exclusion) p = p.slice(1).trim();
    p = cleanPath(p);
    if (p === '') continue;
    patterns.push({ exclusion, regex: toRegex(p) });
  }
  return {
    ignores(path: string) {
      const clean = cleanPath(path);
      const parents = clean.split('/');
      let matched = false;
      for (const pattern of patterns) {
        if (pattern.exclusion !== matched) continue;
        let hit = pattern.regex.test(clean);
        for (let i = 1; !hit && i < parents.length; i++) {
          hit = pattern.regex.test(parents.slice(0, i).join('/'));
        }
        if (hit) matched = !pattern.exclusion;
      }
      return matched;
    }
  };
}

/** filepath.Clean, then relative to the context root. */
function cleanPath(path: string): string {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return out.join('/');
}

function toRegex(pattern: string): RegExp {
  let re = '^';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '*') {
      if (pattern[i + 1] === '*') {
        i++;
        // `**/` matches no directory as well as any number of them.
        if (pattern[i + 1] === '/') {
          i++;
          re += '(?:.*/)?';
        } else re += '.*';
      } else re += '[^/]*';
    } else if (ch === '?') re += '[^/]';
    else if (ch === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end < 0) re += '\\[';
      else {
        const body = pattern.slice(i + 1, end).replace(/^\^/, '!');
        re += `[${body.startsWith('!') ? '^' + body.slice(1) : body}]`;
        i = end;
      }
    } else if (ch === '\\' && i + 1 < pattern.length) re += escapeRegex(pattern[++i]!);
    else re += escapeRegex(ch);
  }
  return new RegExp(re + '$');
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
