import { describe, expect, it } from 'vitest'
import { isInstallId } from '~/utils/install-id'
import { installCookieHeader, readInstallId } from './origin.server'

const ID = 'q1Zx-9_Kd3LmN0pQrStUvA'

function request(cookie?: string, url = 'http://localhost/scan') {
  return new Request(url, cookie === undefined ? {} : { headers: { Cookie: cookie } })
}

/** The attributes of a Set-Cookie, order aside (the value first). */
function parts(header: string) {
  const [pair, ...attributes] = header.split('; ')
  return { pair, attributes: attributes.sort() }
}

describe('the install id cookie', () => {
  it('reads a bare id as the browser keeper and earlier servers wrote it, among other cookies', async () => {
    expect(await readInstallId(request(`rc_install=${ID}`))).toBe(ID)
    expect(await readInstallId(request(`__session=abc.def%3D; rc_install=${ID}; __ref=eyJ4IjoxfQ%3D%3D`))).toBe(ID)
    expect(await readInstallId(request(`theme=café; rc_install=${ID}`))).toBe(ID)
  })

  it.each([
    ['no Cookie header', undefined],
    ['no install cookie', '__session=abc'],
    ['an empty value', 'rc_install='],
    ['too short', 'rc_install=abc'],
    ['characters an id never has', 'rc_install=abc.def+ghi/jklmnop=='],
  ])('has no id with %s', async (_case, cookie) => {
    expect(await readInstallId(request(cookie))).toBeNull()
  })

  it('sets a new bare id with the same name, lifetime and attributes as before, Secure only over https', async () => {
    const header = (await installCookieHeader(request()))!
    const value = /^rc_install=([^;]*)/.exec(header)![1]
    expect(isInstallId(value)).toBe(true)
    expect(parts(header)).toEqual(parts(`rc_install=${value}; Path=/; Max-Age=63072000; SameSite=Lax`))
    expect(await readInstallId(request(`rc_install=${value}`))).toBe(value)

    const secure = (await installCookieHeader(request(undefined, 'https://recircle.example/scan')))!
    expect(parts(secure).attributes).toEqual(parts(`x=y; Path=/; Max-Age=63072000; SameSite=Lax; Secure`).attributes)
  })

  it('sets none when the request already carries an id', async () => {
    expect(await installCookieHeader(request(`rc_install=${ID}`))).toBeNull()
    expect(await installCookieHeader(request('rc_install=abc'))).not.toBeNull()
  })
})
