/** UTF-8 length of a string prefix without encoding it. */
export function utf8Bytes(text: string, end = text.length): number {
  let n = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) { n += 4; i++; }
    else n += 3;
  }
  return n;
}
