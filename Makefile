# Jangada — the two commands that matter are `make run` and `make test`.
GO ?= go
export GOTOOLCHAIN := local

.PHONY: run test soak lint bench build tidy generate

## run: the whole system in the foreground (API :8080, WebSocket :8081, Temporal UI :8233)
run:
	@./scripts/ensure-postgres.sh
	$(GO) run -tags devserver ./cmd/jangada dev

## test: unit tests and integration tests (real PostgreSQL, real in-process Temporal),
## then the short soak (the production split for 30 s, a worker SIGKILLed and restarted)
test:
	$(GO) test -count=1 -timeout 30m ./...
	$(GO) run ./cmd/jangada-soak -quick

## soak: the chaos/soak test (a few minutes): the production split under mixed load while a
## worker is SIGKILLed, an api process and PostgreSQL are restarted; see docs/soak.md
soak:
	$(GO) run ./cmd/jangada-soak

## lint: formatting and vet, with and without the dev-server build tag
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) vet -tags devserver ./cmd/...

## bench: the load tool (creates/s and latency vs bare Temporal) plus Go micro-benchmarks
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./money/ ./brcode/ ./qr/
	$(GO) run -tags devserver ./cmd/jangada-bench
	$(GO) test -run '^$$' -bench IdleConnections -benchtime 1x ./ws/

## build: production binaries (no embedded Temporal)
build:
	$(GO) build -o bin/jangada ./cmd/jangada

## generate: regenerate the committed mocks (go.uber.org/mock) after an interface changes
generate:
	$(GO) generate ./...
