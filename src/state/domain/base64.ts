/** Standard base64, as the APIs take images and a backup holds attachments. */

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  // In pieces: `String.fromCharCode` takes its bytes as arguments, and their number is limited.
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The bytes of standard base64; null when the text is not base64. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return null;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
