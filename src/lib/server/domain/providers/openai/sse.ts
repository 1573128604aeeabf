/**
 * Server-sent events as the HTML standard parses them, for the streams of OpenAI-compatible
 * endpoints: lines end in LF, CR or CRLF (a CRLF may be split between two chunks), `data:`
 * lines of one event are joined with LF, an empty line ends the event, `:` lines are comments,
 * other fields (event, id, retry) are ignored here. Yields each event's data.
 */
export async function* sseData(
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>
): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  /** The last chunk ended in CR: an LF that starts the next one belongs to it. */
  let pendingCr = false;
  const line = (text: string): string | null => {
    if (text === '') {
      const event = data.length ? data.join('\n') : null;
      data = [];
      return event;
    }
    if (text.startsWith(':')) return null;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    return null;
  };
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    if (pendingCr && buffer.startsWith('\n')) buffer = buffer.slice(1);
    pendingCr = false;
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const c = buffer.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      const event = line(buffer.slice(start, i));
      if (event !== null) yield event;
      if (c === 13) {
        if (i + 1 === buffer.length) pendingCr = true;
        else if (buffer.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
    }
    buffer = buffer.slice(start);
  }
  buffer += decoder.decode();
  // A stream that ends without a blank line still ends its last event.
  if (buffer) line(buffer);
  const last = line('');
  if (last !== null) yield last;
}
