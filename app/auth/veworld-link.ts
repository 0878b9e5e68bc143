/**
 * Pure (issue 22): phones outside VeWorld. Safari or Chrome on a phone has no injected wallet and no
 * Sync2, so the page offers VeWorld's documented universal link, which opens the given URL in
 * VeWorld's in-app browser (or the VeWorld site when the app is not installed).
 */
export const VEWORLD_UNIVERSAL_LINK = 'https://www.veworld.com/discover/browser/ul/'

export function veWorldLink(url: string): string {
  return VEWORLD_UNIVERSAL_LINK + encodeURIComponent(url)
}

/** A phone or tablet browser, from its user agent (Sync2 is a desktop app). */
export function isPhoneBrowser(userAgent: string): boolean {
  return /Android|iPhone|iPad|iPod|Mobile|Windows Phone|Opera Mini/i.test(userAgent)
}
