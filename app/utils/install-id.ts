/** The browser install id's name and shape, shared by the server (receipts/origin.server.ts) and the client. */
export const INSTALL_COOKIE = 'rc_install'
export const INSTALL_STORAGE_KEY = 'recircle.install'

export function isInstallId(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{16,64}$/.test(value)
}
