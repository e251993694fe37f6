/**
 * The forms a page commonly turns a secret into before it shows it, each with `core`: what of
 * it shows the secret alone (for a base64 text with more around the secret, the characters in
 * the middle of the secret's part), which must never be left in an output.
 */
export function transformedForms(value: string): Record<string, { text: string; core: string }> {
  const encoder = new TextEncoder();
  const bytes = encoder.encode(value);
  const base64 = (b: Uint8Array) => btoa(String.fromCharCode(...b));
  const around = (before: string, after: string) => {
    const text = base64(encoder.encode(`${before}${value}${after}`));
    const from = Math.ceil((encoder.encode(before).length * 8) / 6);
    const to = Math.floor(((encoder.encode(before).length + bytes.length) * 8) / 6);
    const middle = Math.floor((from + to) / 2);
    return { text, core: text.slice(middle - 4, middle + 4) };
  };
  const whole = (text: string) => ({ text, core: text });
  return {
    raw: whole(value),
    base64: whole(base64(bytes)),
    "base64 in a longer text": around("user=alice;pw=", ";ok"),
    "base64 shifted by one": around("x", ""),
    "base64 shifted by two": around("xy", "z"),
    base64url: whole(base64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")),
    "URL-encoded": whole(encodeURIComponent(value)),
    "form-encoded": whole(new URLSearchParams({ v: value }).toString().slice(2)),
    "HTML entities": whole([...value].map((c) => `&#${c.codePointAt(0)};`).join("")),
    "hex entities": whole([...value].map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join("")),
    "spaced out": whole([...value].join(" ")),
    dashed: whole([...value].join("-")),
    reversed: whole([...value].reverse().join("")),
    "reversed and spaced": whole([...value].reverse().join(" ")),
    "upper case": whole(value.toUpperCase()),
    hex: whole([...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")),
  };
}

/** The forms of `value` whose core `text` holds, by name (none: nothing crossed). */
export function formsIn(text: string, value: string): string[] {
  return Object.entries(transformedForms(value)).filter(([, f]) => text.includes(f.core)).map((
    [name],
  ) => name);
}
