// Words shown to people: plurals and raw keys turned into words. Pure.

/** '1 sustainable trip', '2 sustainable trips'. `many` defaults to `one` + 's'. */
export function plural(n: number, one: string, many: string = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}

/** 'some_raw_key' -> 'Some raw key', for keys that have no label of their own. */
export function humanizeKey(key: string): string {
  const words = key.replace(/[_-]+/g, ' ').replace(/\s+/g, ' ').trim()
  return words.charAt(0).toUpperCase() + words.slice(1)
}
