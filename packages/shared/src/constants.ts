/** Business constants of the seed specification (section 9). */
export const READING_INTERVAL_MS = 3000;
export const LIVE_HISTORY_PER_SENSOR = 100;
export const TOAST_DURATION_MS = 5000;
export const TOAST_LIMIT = 1;
export const TOAST_SWIPE_THRESHOLD = 50;
export const TOAST_HOTKEY = 'F8';
export const SENSOR_MAX_LEVEL_RESIDUAL_M = 10;
export const SENSOR_MAX_LEVEL_CLEAN_M = 5;
export const EXCEL_SHEET_NAME_MAX = 30;
export const EXCEL_FILE_NAME = 'Historial_Sensores_Agua.xlsx';
export const CSV_FILE_NAME = 'Historial_Sensores_Agua.csv';
export const PRODUCT_NAME = 'Panel de Control de Agua';
/** Local-storage key of the signed-in user's profile (never holds a secret). */
export const SESSION_STORAGE_KEY = 'iot_user';
export const PASSWORD_MIN_LENGTH = 10;
