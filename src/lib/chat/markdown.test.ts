import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown';

describe('chat markdown', () => {
  it('shows raw HTML as text, never as elements', () => {
    const html = renderMarkdown('<script>alert(1)</script> and <img src=x onerror="alert(2)">');
    expect(html).not.toMatch(/<script|<img/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(2)&quot;&gt;');
  });

  it('links only http(s) and mailto, opened apart from the console', () => {
    const html = renderMarkdown(
      '[ok](https://example.com/a) [mail](mailto:a@example.com) [bad](javascript:alert(1)) [data](data:text/html,x)'
    );
    expect(html).toContain(
      '<a href="https://example.com/a" rel="noopener noreferrer" target="_blank">ok</a>'
    );
    expect(html).toContain('href="mailto:a@example.com"');
    expect(html).not.toMatch(/href="(javascript|data):/i);
    expect(html).toContain('[bad](javascript:alert(1))');
  });

  it('drops images and gives code blocks a copy button with escaped code', () => {
    expect(renderMarkdown('![x](https://example.com/pixel.png)')).not.toContain('<img');
    const html = renderMarkdown('```sh\necho "<b>hi</b>"\n```');
    expect(html).toContain('<button type="button" class="copy" data-copy>Copy</button>');
    expect(html).toContain('<span class="lang">sh</span>');
    expect(html).toContain('echo &quot;&lt;b&gt;hi&lt;/b&gt;&quot;');
  });
});
