import MarkdownIt from 'markdown-it';

/**
 * Chat messages as safe Markdown: raw HTML is shown as text (`html: false`), images are off (no
 * request leaves for a remote picture), links open only for http(s) and mailto and carry
 * rel="noopener noreferrer", and each code block gets a Copy button (the page handles its
 * click). Everything else markdown-it escapes.
 */
const md = new MarkdownIt({ html: false, linkify: true, breaks: true });
md.disable('image');

const SAFE_LINK = /^(https?:|mailto:)/i;
md.validateLink = (url) => SAFE_LINK.test(url.trim());

const defaultLinkOpen =
  md.renderer.rules.link_open ??
  ((tokens, i, options, _env, self) => self.renderToken(tokens, i, options));
md.renderer.rules.link_open = (tokens, i, options, env, self) => {
  const token = tokens[i]!;
  token.attrSet('rel', 'noopener noreferrer');
  token.attrSet('target', '_blank');
  return defaultLinkOpen(tokens, i, options, env, self);
};

md.renderer.rules.fence = (tokens, i) => {
  const token = tokens[i]!;
  const lang = token.info.trim().split(/\s+/)[0] ?? '';
  const label = lang ? `<span class="lang">${md.utils.escapeHtml(lang)}</span>` : '';
  return (
    `<div class="code">${label}<button type="button" class="copy" data-copy>Copy</button>` +
    `<pre><code>${md.utils.escapeHtml(token.content)}</code></pre></div>\n`
  );
};
md.renderer.rules.code_block = md.renderer.rules.fence;

export function renderMarkdown(text: string): string {
  return md.render(text);
}
