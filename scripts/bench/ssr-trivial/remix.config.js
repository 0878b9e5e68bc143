/** The trivial Remix v2 app that `npm run bench:ssr` compares ReCircle with: one loader, one <h1>. */
/** @type {import('@remix-run/dev').AppConfig} */
export default {
  serverModuleFormat: 'esm',
  future: { v3_fetcherPersist: true, v3_relativeSplatPath: true, v3_throwAbortReason: true },
}
