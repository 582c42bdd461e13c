/**
 * Limits of what people type for users and devices: one home for the route schemas, the web
 * forms, the CLI and the tests. The contract (docs/api.md) fixes only the password's minimum; the
 * rest are chosen to hold any real name, address or plant, and to keep every request small.
 */

export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 50;
/** Letters without accents, digits, dot, hyphen and underscore: safe in logs, URLs and audit lines. */
export const USERNAME_PATTERN = '^[A-Za-z0-9._-]+$';
export const USERNAME_REGEX = new RegExp(`^[A-Za-z0-9._-]{${USERNAME_MIN_LENGTH},${USERNAME_MAX_LENGTH}}$`);

export const PERSON_NAME_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 254;
export const EMAIL_PATTERN = '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$';
export const EMAIL_REGEX = new RegExp(EMAIL_PATTERN);

/**
 * The longest password (or master password) any route sets or accepts: signing in accepts every
 * password that can be set, and Argon2's input stays bounded.
 */
export const PASSWORD_MAX_LENGTH = 1000;

export const DEVICE_NAME_MAX_LENGTH = 100;
export const DEVICE_LOCATION_MAX_LENGTH = 200;
/** A level sensor's maxLevel: above 0, up to this many metres. */
export const MAX_LEVEL_LIMIT_M = 1000;
/** warningPct / criticalPct: strictly between 0 and 100 (0 % or 100 % would never or always alarm). */
export const THRESHOLD_PCT_EXCLUSIVE_MIN = 0;
export const THRESHOLD_PCT_EXCLUSIVE_MAX = 100;
export const OFFLINE_AFTER_MAX_S = 86_400;
/** A level sensor's `readingIntervalS` (how often it reads; docs/water.md "Daily totals"): 1 s to a day. */
export const READING_INTERVAL_MAX_S = 86_400;
export const TRAVEL_TIMEOUT_MAX_S = 3600;
