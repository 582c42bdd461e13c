// No look-alike characters (0/O, 1/l/I): the password is read off a screen and typed by someone else.
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
const GROUPS = 3;
const GROUP_LENGTH = 4;

/**
 * A random temporary password such as 'Xk7p-Rt4m-Qa9z': 12 characters from a 56-symbol alphabet
 * (about 70 bits), in groups so that it can be dictated. Uses the browser's CSPRNG with
 * rejection sampling, so every symbol is equally likely.
 */
export function generateTemporaryPassword(): string {
  const limit = 256 - (256 % ALPHABET.length);
  const chars: string[] = [];
  while (chars.length < GROUPS * GROUP_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(32))) {
      if (byte < limit && chars.length < GROUPS * GROUP_LENGTH) chars.push(ALPHABET[byte % ALPHABET.length]!);
    }
  }
  const groups: string[] = [];
  for (let i = 0; i < GROUPS; i++) groups.push(chars.slice(i * GROUP_LENGTH, (i + 1) * GROUP_LENGTH).join(''));
  return groups.join('-');
}
