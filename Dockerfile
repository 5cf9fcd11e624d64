# Production image: the jangada binary without the embedded Temporal server
# (that lives behind the `devserver` build tag and is for `make run` only).
# The Go image is pinned to go.mod's exact version; .dockerignore keeps local
# state (.data/, the dev payload key), binaries and secrets out of COPY.
FROM golang:1.26.8-bookworm AS build
WORKDIR /src
ENV GOTOOLCHAIN=local CGO_ENABLED=0
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN go build -trimpath -ldflags="-s -w" -o /out/jangada ./cmd/jangada

# distroless has no shell and no curl: the compose healthchecks run
# `jangada health` (it asks the process's own JANGADA_ADMIN_ADDR /readyz).
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/jangada /usr/local/bin/jangada
# 8080 merchant API, 8081 WebSocket gateway, 8082 operators' listener
# (admin API, /metrics, pprof; publish it on loopback only).
EXPOSE 8080 8081 8082
USER nonroot
ENTRYPOINT ["/usr/local/bin/jangada"]
CMD ["api"]
