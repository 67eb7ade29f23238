# The bot server as an image: `docker build -t czech-pub .`, then
#   docker run -p 8787:8787 -v "$PWD/config:/config:ro" -v "$PWD/models:/models:ro" czech-pub
# The build stage compiles the package exactly as `npm pack` makes it for npm; the runtime stage
# installs that package's production dependencies only and runs its compiled server as the
# unprivileged `node` user. docs/deploy.md: the config, limits, logs, TLS behind a reverse proxy.
# test/package.test.ts checks every path copied here and runs the CMD from the packed package.

FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/ scripts/
COPY bin/ bin/
COPY env/ env/
COPY policy/ policy/
COPY agents/ agents/
COPY eval/ eval/
COPY training/ training/
COPY queue/ queue/
COPY server/ server/
COPY bridge/ bridge/
COPY cli/ cli/
COPY models/ models/
COPY web/ web/
RUN npm pack --pack-destination /tmp && mkdir -p /pkg && tar -xzf /tmp/czech-pub-gym-*.tgz -C /pkg

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /src/package-lock.json ./
COPY --from=build /pkg/package/ ./
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund && npm cache clean --force
# The catalogue and limits (server/config.ts) and a folder of checkpoints: mount your own over them.
COPY deploy/config.json /config/config.json
# Live games are kept in /data/games so they survive a restart: mount a volume there to keep them across containers.
RUN mkdir -p /models /data/games && chown node:node /data/games
USER node
EXPOSE 8787
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8787/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "bin/czech-pub.js", "serve", "--host", "0.0.0.0", "--port", "8787", "--config", "/config/config.json", "--models", "/models", "--state-dir", "/data/games"]
