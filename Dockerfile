# The app image for docker-compose.yml (not built in CI: no Docker engine there; CI runs its steps, `npm ci` and
# `npm run build`, on a clean clone). The lockfile holds every platform's native packages, so the same file builds
# for both architectures:
#   docker buildx build --platform linux/amd64,linux/arm64 -t verbatim .
FROM node:22-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ffmpeg python3 python3-venv ca-certificates \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && npm run build
EXPOSE 3000
CMD ["npm", "start", "--", "-H", "0.0.0.0"]
