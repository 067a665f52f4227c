/** A short description of a value for an error message (JSON where possible, at most 60 characters). */
export function showValue(value: unknown): string {
  if (value === undefined) return 'nothing (the key is missing)';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
