/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ['**/.*', '**/*.test.{ts,tsx}'],
  serverModuleFormat: 'esm',
  // Packages stay outside the server bundle (native and WASM ones must load from node_modules).
  serverDependenciesToBundle: [],
  browserNodeBuiltinsPolyfill: { modules: { buffer: true } },
  watchPaths: ['./db/**/*.ts'],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
  },
}
