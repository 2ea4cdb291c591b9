# The app image for docker-compose.yml (not built in CI: no Docker engine there).
FROM node:20-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ffmpeg python3 python3-venv ca-certificates \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && npm run build
EXPOSE 3000
CMD ["npm", "start", "--", "-H", "0.0.0.0"]
