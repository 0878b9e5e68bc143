import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { getEnv, resetEnvCache, sessionSecretFile } from './env.server'

describe('sessionSecretFile: the generated secret lives beside the database (decision 002)', () => {
  it.each([
    ['file:data/recircle.db', path.resolve('data/session-secret')],
    ['file:/srv/recircle/app.db', '/srv/recircle/session-secret'],
    ['file:///srv/recircle/app.db', '/srv/recircle/session-secret'],
    ['/var/lib/recircle/db.sqlite', '/var/lib/recircle/session-secret'],
    ['postgres://u:p@db.internal:5432/recircle', path.resolve('data/session-secret')],
    [':memory:', path.resolve('data/session-secret')],
  ])('%s -> %s', (url, expected) => {
    expect(sessionSecretFile(url)).toBe(expected)
  })
})

describe('a generated session secret', () => {
  const saved = { DATABASE_URL: process.env.DATABASE_URL, SESSION_SECRET: process.env.SESSION_SECRET }
  afterEach(() => {
    process.env.DATABASE_URL = saved.DATABASE_URL
    process.env.SESSION_SECRET = saved.SESSION_SECRET
    resetEnvCache()
  })

  it('is written beside a database outside the repository and reused', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recircle-secret-'))
    process.env.DATABASE_URL = `file:${path.join(dir, 'nested', 'app.db')}`
    delete process.env.SESSION_SECRET
    resetEnvCache()
    const secret = getEnv().SESSION_SECRET
    const file = path.join(dir, 'nested', 'session-secret')
    expect(fs.readFileSync(file, 'utf8')).toBe(secret)
    expect(fs.statSync(file).mode & 0o777).toBe(0o600)
    resetEnvCache()
    expect(getEnv().SESSION_SECRET).toBe(secret)
    fs.rmSync(dir, { recursive: true, force: true })
  })
})

describe('TRUST_PROXY: the number of proxies in front (issue 29)', () => {
  const saved = process.env.TRUST_PROXY
  afterEach(() => {
    if (saved === undefined) delete process.env.TRUST_PROXY
    else process.env.TRUST_PROXY = saved
    resetEnvCache()
  })

  it.each([
    ['', 0],
    ['0', 0],
    ['false', 0],
    ['1', 1],
    ['true', 1],
    ['2', 2],
  ])('%j is %i', (value, hops) => {
    process.env.TRUST_PROXY = value
    resetEnvCache()
    expect(getEnv().TRUST_PROXY).toBe(hops)
  })

  it('stops with a message for anything else', () => {
    process.env.TRUST_PROXY = 'yes'
    resetEnvCache()
    expect(() => getEnv()).toThrow(/TRUST_PROXY: must be the number of proxies/)
  })
})

describe('PHOTO_REWARD_HOLD_HOURS and PHOTO_AUDIT_RATE (issue 38)', () => {
  const saved = { hold: process.env.PHOTO_REWARD_HOLD_HOURS, rate: process.env.PHOTO_AUDIT_RATE }
  const set = (hold: string | undefined, rate: string | undefined) => {
    if (hold === undefined) delete process.env.PHOTO_REWARD_HOLD_HOURS
    else process.env.PHOTO_REWARD_HOLD_HOURS = hold
    if (rate === undefined) delete process.env.PHOTO_AUDIT_RATE
    else process.env.PHOTO_AUDIT_RATE = rate
    resetEnvCache()
  }
  afterEach(() => set(saved.hold, saved.rate))

  it.each([
    [undefined, undefined, 72, 0.1],
    ['', '', 72, 0.1],
    ['0', '0', 0, 0],
    ['1.5', '0.25', 1.5, 0.25],
    ['720', '1', 720, 1],
  ])('hold %j, rate %j -> %s hours, %s', (hold, rate, hours, share) => {
    set(hold, rate)
    expect(getEnv()).toMatchObject({ PHOTO_REWARD_HOLD_HOURS: hours, PHOTO_AUDIT_RATE: share })
  })

  it.each([
    ['-1', '0.1', /PHOTO_REWARD_HOLD_HOURS: must be 0 or more hours/],
    ['721', '0.1', /PHOTO_REWARD_HOLD_HOURS: must be at most 720 hours/],
    ['three days', '0.1', /PHOTO_REWARD_HOLD_HOURS/],
    ['72', '1.5', /PHOTO_AUDIT_RATE: must be between 0 and 1/],
    ['72', '-0.1', /PHOTO_AUDIT_RATE: must be between 0 and 1/],
  ])('stops with a message for hold %j, rate %j', (hold, rate, message) => {
    set(hold, rate)
    expect(() => getEnv()).toThrow(message)
  })
})
