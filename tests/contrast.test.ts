import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { contrastRatio, rootColors } from './utils/contrast'

// Issue 11: all text reaches WCAG AA, 4.5:1, on the app's main colours. The colours come from the
// `:root` custom properties of app.css; literal colours are the ones the stylesheets pair with
// them. tests/e2e/layout.e2e.ts checks the rendered pages the same way.
const vars = rootColors(fs.readFileSync('app/styles/app.css', 'utf8'))
const color = (v: string) => (v.startsWith('--') ? vars[v.slice(2)] : v)

const PAIRS: [text: string, background: string, where: string][] = [
  ['#ffffff', '--green-600', 'primary buttons, active tabs and segments'],
  ['#ffffff', '--green-700', 'hero cards (gradient start), button hover'],
  ['#ffffff', '--green-900', 'overlays, marketing card'],
  ['--green-700', '--card', 'links'],
  ['--green-700', '--bg', 'links on the page background'],
  ['--green-700', '--green-50', 'links in info alerts'],
  ['--green-900', '--card', 'secondary buttons, headings'],
  ['--green-900', '--green-100', 'pills, badges'],
  ['--green-900', '--green-50', 'chips, info alerts'],
  ['--ink', '--card', 'body text on cards'],
  ['--ink', '--bg', 'body text'],
  ['--muted', '--card', 'secondary text on cards'],
  ['--muted', '--bg', 'secondary text on the page'],
  ['--muted', '--green-50', 'labels in summary tiles'],
  ['--muted', '--green-100', 'secondary text on pale green'],
  ['--red-600', '--card', 'danger buttons, field errors'],
  ['--red-600', '--red-50', 'error log rows'],
  ['#991b1b', '--red-50', 'error alerts'],
  ['#92400e', '--amber-100', 'warnings, streak pill'],
  ['#111111', '--amber-500', 'streak bonus banner'],
  ['#3730a3', '#e0e7ff', 'admin pill'],
  ['--blue-600', '--card', 'wallet log level'],
]

describe('text contrast on the main colours', () => {
  it('reads every colour it needs from app.css', () => {
    for (const [text, background] of PAIRS) {
      expect(color(text), text).toMatch(/^#/)
      expect(color(background), background).toMatch(/^#/)
    }
  })

  it.each(PAIRS)('%s on %s (%s) is at least 4.5:1', (text, background) => {
    expect(contrastRatio(color(text), color(background))).toBeGreaterThanOrEqual(4.5)
  })

  it('computes ratios as WCAG does', () => {
    expect(contrastRatio('#000', '#fff')).toBeCloseTo(21, 5)
    expect(contrastRatio('#fff', '#fff')).toBe(1)
    // The primary green before issue 11: white text on it measured 4.34:1.
    expect(contrastRatio('#ffffff', '#178a5e')).toBeCloseTo(4.34, 2)
  })
})
