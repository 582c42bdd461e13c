/** Texts of 'Seguridad de la cuenta' that are worked out, not written (unit-tested). */

/** The secret for typing into an app by hand: groups of four ('JBSW Y3DP EHPK 3PXP'). */
export function groupSecret(secret: string): string {
  return (secret.replace(/\s+/g, '').match(/.{1,4}/g) ?? []).join(' ');
}

/** The name of the downloaded recovery codes: 'codigos-recuperacion-{username}-{YYYY-MM-DD}.txt'. */
export function recoveryCodesFileName(username: string, at: Date): string {
  const day = `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;
  const safe = username.replace(/[^a-z0-9._-]+/gi, '_');
  return `codigos-recuperacion-${safe}-${day}.txt`;
}

/** The downloaded (and copied) recovery codes: who and when, how to use them, then one code a line. */
export function recoveryCodesText(codes: readonly string[], { product, username, at }: { product: string; username: string; at: Date }): string {
  return [
    `${product} — códigos de recuperación`,
    `Usuario: ${username}`,
    `Generados: ${at.toLocaleString('es-ES')}`,
    '',
    'Cada código sirve una sola vez, en lugar del código de la aplicación, si pierde el teléfono.',
    'Guárdelos en un lugar seguro: quien los tenga, junto con su contraseña, puede entrar en su cuenta.',
    '',
    ...codes,
    '',
  ].join('\n');
}

/** 'otpauth://totp/Agua:{username}?…' without its secret, for a screen reader's label of the QR code. */
export function accountOfOtpauthUrl(url: string): string | null {
  try {
    const label = decodeURIComponent(new URL(url).pathname.replace(/^\/+/, '').replace(/^totp\//, ''));
    return label || null;
  } catch {
    return null;
  }
}
