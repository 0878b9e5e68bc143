import crypto from 'node:crypto'
import { getEnv } from '~/utils/env.server'
import type { MaturingSettings } from './maturing'

/** This server's hold and audit rate (PHOTO_REWARD_HOLD_HOURS, PHOTO_AUDIT_RATE). */
export function maturingSettings(env = getEnv()): MaturingSettings {
  return { holdHours: env.PHOTO_REWARD_HOLD_HOURS, auditRate: env.PHOTO_AUDIT_RATE }
}

/**
 * A uniform draw in [0, 1) for audit sampling, from the operating system's randomness: nothing in
 * the request (its timing, its receipt id, its content) can make a receipt more or less likely to
 * be audited, and a wallet learns nothing from earlier draws.
 */
export function auditDraw(): number {
  return crypto.randomInt(0, 2 ** 32) / 2 ** 32
}
