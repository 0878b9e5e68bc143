import { describe, expect, it } from 'vitest'
import type { Env } from '~/utils/env.server'
import { maskedConfig, maskSecret, maskUrl } from './config.server'

describe('maskUrl', () => {
  it.each([
    ['postgres://recircle:S3cret-pass@db.internal:5432/recircle?sslmode=require', 'postgres://••••@db.internal:5432/recircle?sslmode=••••'],
    ['https://token@node.example/api?key=abc#frag', 'https://••••@node.example/api?key=••••'],
    ['file:data/recircle.db', 'file:data/recircle.db'],
    ['https://testnet.vechain.org', 'https://testnet.vechain.org'],
    ['data/recircle.db', 'data/recircle.db'],
    ['user:secret@host', 'set (•••• 16 characters)'],
  ])('%s -> %s', (raw, masked) => {
    expect(maskUrl(raw)).toBe(masked)
  })
})

describe('maskedConfig', () => {
  it('masks secrets and unknown variables, shows the harmless ones', () => {
    const env = {
      PORT: 3000,
      ENABLE_DEBUG_TOOLS: true,
      SESSION_SECRET: 'x'.repeat(40),
      PAYOUT_PRIVATE_KEY: 'ab'.repeat(32),
      PAYOUT_MNEMONIC: [],
      SOMETHING_NEW: 'hunter2',
    } as unknown as Env
    const byName = Object.fromEntries(maskedConfig(env, { SESSION_SECRET: 'x'.repeat(40), NODE_ENV: 'test' }).map((e) => [e.name, e.value]))
    expect(byName).toMatchObject({
      NODE_ENV: 'test',
      PORT: '3000',
      ENABLE_DEBUG_TOOLS: 'on',
      SESSION_SECRET: 'set (•••• 40 characters)',
      PAYOUT_PRIVATE_KEY: 'set (•••• 64 characters)',
      PAYOUT_MNEMONIC: 'not set',
      SOMETHING_NEW: 'set (•••• 7 characters)',
    })
    expect(maskSecret(['a', 'b'])).toBe('set (•••• 2 words)')
  })
})
