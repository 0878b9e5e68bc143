import { useEffect } from 'react'
import { INSTALL_COOKIE, INSTALL_STORAGE_KEY, isInstallId } from '~/utils/install-id'

/**
 * Keeps the browser install id (issue 31) in both places: a cleared cookie comes back from
 * localStorage, and a cookie the server set is copied to localStorage. It identifies the install
 * to staff as "these wallets share a browser", nothing more; it is not a credential.
 */
export function InstallIdKeeper() {
  useEffect(() => {
    try {
      const fromCookie = document.cookie
        .split(';')
        .map((p) => p.trim().split('='))
        .find(([name]) => name === INSTALL_COOKIE)?.[1]
      const stored = window.localStorage.getItem(INSTALL_STORAGE_KEY)
      const id = isInstallId(fromCookie) ? fromCookie : isInstallId(stored) ? stored : randomId()
      if (stored !== id) window.localStorage.setItem(INSTALL_STORAGE_KEY, id)
      if (fromCookie !== id) {
        const secure = window.location.protocol === 'https:' ? '; Secure' : ''
        document.cookie = `${INSTALL_COOKIE}=${id}; Path=/; Max-Age=63072000; SameSite=Lax${secure}`
      }
    } catch {
      // Storage refused (private mode): the server's cookie alone will do.
    }
  }, [])
  return null
}

function randomId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}
