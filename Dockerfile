# syntax=docker/dockerfile:1
#
# The sidecar as a container: search, since, /mcp and the WebSub hub over a bundle baked into the
# image. The static documents and pages are served by a CDN from the same build (SERVE_STATIC=false).
# See docs/deploy/container.md. tests/container.test.ts replays this recipe without a container engine,
# so keep each COPY, ENV and the install commands simple (one instruction per line, no variables in
# paths).
#
#   docker build -t riverbend-reviews --build-arg SITE_URL=https://reviews.example.com .
#   docker run -p 8080:8080 -v reviews-state:/var/lib/reviews riverbend-reviews

# ---- build: every dependency, then `npm run build` (validates data/, writes dist/) ----
FROM node:24-bookworm-slim AS build
WORKDIR /app
ENV ASTRO_TELEMETRY_DISABLED=1
ENV NPM_CONFIG_UPDATE_NOTIFIER=false
# Liberation Sans: the only font of the social cards (og:image) the build renders.
RUN apt-get update && apt-get install -y --no-install-recommends fonts-liberation && rm -rf /var/lib/apt/lists/*
# `npm ci`: exactly the versions the committed lockfile pins (it records every platform's packages).
COPY package.json package-lock.json ./
# The workspaces (packages/shared, packages/server): npm links them into node_modules.
COPY packages ./packages
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY astro.config.mjs tsconfig.json ./
COPY scripts ./scripts
COPY src ./src
COPY public ./public
COPY data ./data
# Every absolute link in the documents is built from SITE_URL: pass the public URL.
ARG SITE_URL=http://localhost:8080
ENV SITE_URL=${SITE_URL}
RUN npm run build

# ---- runtime: production dependencies, the sidecar's modules and the built bundle ----
FROM node:24-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production
ENV NPM_CONFIG_UPDATE_NOTIFIER=false
# The server workspace and the packages it depends on, all of packages/ (the build's code is in
# the root package's src/, which is not copied): npm installs the server's production dependencies
# and links @riverbend/shared and @riverbend/server into node_modules. Node follows those links to
# packages/, so the .ts files it strips types from are not under node_modules.
COPY package.json package-lock.json ./
COPY packages ./packages
RUN npm ci --omit=dev --workspace=@riverbend/server --no-audit --no-fund --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
# The hub's SQLite file lives on a volume, writable by the unprivileged user; the code is not.
RUN mkdir -p /var/lib/reviews && chown node:node /var/lib/reviews
VOLUME ["/var/lib/reviews"]
# The sidecar must answer on the same public URL the bundle was built for (MCP checks Host against it).
ARG SITE_URL=http://localhost:8080
ENV SITE_URL=${SITE_URL}
ENV HOST=0.0.0.0
ENV PORT=8080
ENV DIST_DIR=/app/dist
ENV STATE_DIR=/var/lib/reviews
ENV SERVE_STATIC=false
USER node
EXPOSE 8080
# node itself: slim images have no curl or wget.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
# A 16 MB young generation: while reviews.json is parsed V8 grows it to about 130 MB and keeps it
# committed; capped, RSS with 100k reviews stays under 300 MB (npm run bench:api starts the sidecar
# with the flags of this line).
CMD ["node", "--max-semi-space-size=16", "packages/server/src/main.ts"]
