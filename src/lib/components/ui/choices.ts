/** The list with `item` added (on) or removed (off), for checkbox groups bound to a list. */
export function toggled(list: string[], item: string, on: boolean): string[] {
  return on ? [...list, item] : list.filter((x) => x !== item);
}
