/** Shown on the debug tools page and answered by its reset action outside test mode. */
export const RESET_NOT_IN_TEST_MODE = 'Resetting a user on the server is only available when the server runs in test mode.'
