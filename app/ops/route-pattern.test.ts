import { describe, expect, it } from 'vitest'
import { createRouteLabeler, type RouteManifest } from './route-pattern'

// The shapes Remix's flat routes produce for this app's route files.
const routes: RouteManifest = {
  root: { id: 'root', path: '' },
  'routes/_index': { id: 'routes/_index', parentId: 'root', index: true },
  'routes/$': { id: 'routes/$', parentId: 'root', path: '*' },
  'routes/admin._index': { id: 'routes/admin._index', parentId: 'root', path: 'admin', index: true },
  'routes/admin.receipts': { id: 'routes/admin.receipts', parentId: 'root', path: 'admin/receipts' },
  'routes/admin.receipts_.$id.image': { id: 'routes/admin.receipts_.$id.image', parentId: 'root', path: 'admin/receipts/:id/image' },
  'routes/scan': { id: 'routes/scan', parentId: 'root', path: 'scan' },
  'routes/scan_.receipts.$id': { id: 'routes/scan_.receipts.$id', parentId: 'root', path: 'scan/receipts/:id' },
  'routes/api.users.$id': { id: 'routes/api.users.$id', parentId: 'root', path: 'api/users/:id' },
  'routes/api.users.$id.stats': { id: 'routes/api.users.$id.stats', parentId: 'root', path: 'api/users/:id/stats' },
  'routes/api.users.wallet.$address': { id: 'routes/api.users.wallet.$address', parentId: 'root', path: 'api/users/wallet/:address' },
  'routes/api.me.transactions[.csv]': { id: 'routes/api.me.transactions[.csv]', parentId: 'root', path: 'api/me/transactions.csv' },
  'routes/stores._index': { id: 'routes/stores._index', parentId: 'root', path: 'stores', index: true },
  'routes/stores.$id': { id: 'routes/stores.$id', parentId: 'root', path: 'stores/:id' },
  'routes/_auth': { id: 'routes/_auth', parentId: 'root' },
  'routes/_auth.join': { id: 'routes/_auth.join', parentId: 'routes/_auth', path: 'join' },
}

describe('createRouteLabeler', () => {
  const label = createRouteLabeler(routes)
  it.each([
    ['/', '/'],
    ['/admin', '/admin'],
    ['/admin/', '/admin'],
    ['/admin/receipts', '/admin/receipts'],
    ['/admin/receipts/17/image', '/admin/receipts/:id/image'],
    ['/scan', '/scan'],
    ['/scan/receipts/42', '/scan/receipts/:id'],
    ['/api/users/7', '/api/users/:id'],
    ['/api/users/7/stats', '/api/users/:id/stats'],
    // A static segment beats a parameter in the same place.
    ['/api/users/wallet/0xabc', '/api/users/wallet/:address'],
    ['/api/me/transactions.csv', '/api/me/transactions.csv'],
    ['/stores', '/stores'],
    ['/stores/3', '/stores/:id'],
    // A pathless layout's child is named by its own path.
    ['/join', '/join'],
    // Anything else is the splat route's, however many distinct paths arrive.
    ['/no/such/page', '/*'],
    ['/wp-login.php', '/*'],
    ['/ADMIN/Receipts', '/admin/receipts'],
  ])('%s → %s', (path, expected) => {
    expect(label(path)).toBe(expected)
  })

  it('says unmatched when no route (not even a splat) takes the path', () => {
    const { 'routes/$': _splat, ...withoutSplat } = routes
    expect(createRouteLabeler(withoutSplat)('/no/such/page')).toBe('unmatched')
  })
})
