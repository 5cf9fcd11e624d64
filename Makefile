# Jangada — the commands that matter are `make run`, `make unit` and `make test`.
GO ?= go
export GOTOOLCHAIN := local
# -trimpath leaves the checkout's directory out of every compiled package's
# cache key: a clone at a new path (CI's clean clone) reuses what any other
# clone compiled from the same sources instead of compiling the module again.
export GOFLAGS := -trimpath $(GOFLAGS)

.PHONY: run unit test soak lint bench bench-split bench-mixed build tidy generate clients

## run: the whole system in the foreground (API :8080, WebSocket :8081, operators :8082 on
## 127.0.0.1, Temporal UI :8233). The dev binary is built, then exec'd: the shell becomes the
## server, so the SIGTERM make forwards to its child (an IDE's stop button, a supervisor) and
## Ctrl-C reach it and it stops cleanly (`go run` would die and leave the server running).
run:
	@./scripts/ensure-postgres.sh
	@if [ ! -x .bin/jangada ]; then echo "First build: Go downloads the modules, then compiles Jangada with the embedded Temporal server and its Web UI (several hundred packages: about 10 minutes on a fresh machine, seconds afterwards). Each package is named as it compiles."; fi
	$(GO) build -tags devserver $(if $(wildcard .bin/jangada),,-v) -o .bin/jangada ./cmd/jangada
	exec ./.bin/jangada dev

## unit: the fast tier (seconds): every test that needs no PostgreSQL, no Temporal server, no
## chromium and no soak. -short makes the others skip (db/dbtest, the e2e and devserver helpers);
## the Temporal test suite (time skipping, in memory) runs. Run it while editing.
unit:
	$(GO) test -short -count=1 ./...

## test: unit tests and integration tests (real PostgreSQL, real in-process Temporal),
## then the short soak (the production split for 30 s, a worker SIGKILLed and restarted).
## -vet=off: `make lint` vets every file with every analyzer (CI runs it first), so the test
## run does not vet each package again.
test:
	$(GO) test -count=1 -vet=off -timeout 30m ./...
	$(GO) run ./cmd/jangada-soak -quick

## soak: the chaos/soak test (a few minutes): the production split under mixed load while a
## worker is SIGKILLed, an api process and PostgreSQL are restarted; see docs/soak.md.
## CLUSTER=1: Temporal as a 2-node cluster on PostgreSQL (8 shards), one node SIGKILLed too
## (CLUSTER=3: three nodes)
soak:
	$(GO) run ./cmd/jangada-soak $(if $(CLUSTER),-cluster $(if $(filter 1,$(CLUSTER)),2,$(CLUSTER)))

## lint: formatting, and vet over every file: the whole tree once without the dev-server build tag,
## then with it only the packages that tag changes (those with a `//go:build ...devserver` file: it
## swaps their files), not the whole tree twice. go vet takes one tag set per run.
DEVSERVER_PKGS = $(sort $(addprefix ./,$(dir $(shell git grep -l '^//go:build.*devserver' -- '*.go'))))
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) vet -tags devserver $(DEVSERVER_PKGS)

## bench: every performance figure beside its bare baseline, measured in one run on the make run
## shape (docs/performance.md); QUICK=1 for the short run. Then the Go micro-benchmarks, then the
## sustained mixed run on the production split (10 minutes; 1 minute with QUICK=1; MIXED=5m sets it).
## FLUSH=1ms makes every commit of the table's rigs wait that long, as on network storage.
bench:
	$(GO) run -tags devserver ./cmd/jangada-bench $(if $(QUICK),-quick) $(if $(FLUSH),-commit-flush $(FLUSH))
	$(GO) test -run '^$$' -bench . -benchmem ./money/ ./brcode/ ./qr/ ./ratelimit/
	$(GO) run -tags devserver ./cmd/jangada-bench -mixed $(or $(MIXED),$(if $(QUICK),1m,10m))

## bench-mixed: the sustained mixed run alone (MIXED=10m by default): p50/p99 per minute of each
## operation, process memory and goroutines, store growth, history sizes, lost deliveries, ledger
## violations; report and PNGs in bench-out/mixed-<time>/
bench-mixed:
	$(GO) run -tags devserver ./cmd/jangada-bench -mixed $(or $(MIXED),10m)

## bench-split: creates/s, webhook deliveries/s and pay → WebSocket on the production shape (jangada temporal,
## one api, 1 then 2 worker processes) beside bare baselines, and each process's CPU per create;
## QUICK=1 for the short run; CLUSTER=1 on a 2-node Temporal cluster on PostgreSQL (CLUSTER=3: three),
## which with Jangada's database runs on a private PostgreSQL the bench starts (initdb, 300 connections)
bench-split:
	$(GO) run -tags devserver ./cmd/jangada-bench -split 1,2 $(if $(QUICK),-quick) $(if $(CLUSTER),-cluster $(if $(filter 1,$(CLUSTER)),2,$(CLUSTER)))

## build: production binaries (no embedded Temporal)
build:
	$(GO) build -o bin/jangada ./cmd/jangada

## generate: regenerate the committed mocks (go.uber.org/mock) after an interface changes
generate:
	$(GO) generate ./...

## clients: regenerate both clients of the merchant API from the document the API serves: the Go
## client (client/oapi, oapi-codegen, through the document's 3.0 view) and the TypeScript client's
## types (clients/typescript/src/schema.ts and schema/, openapi-typescript on the 3.1 document, cut into
## files of at most 450 lines by scripts/split-schema.mjs; needs Node.js
## and npm). TestClientIsFresh and TestTypeScriptClient (make test) fail when either is stale.
clients:
	$(GO) generate ./client/...
	$(GO) run ./client/internal/gendoc -document clients/typescript/openapi.json
	cd clients/typescript && npm ci --prefer-offline --no-audit --no-fund --loglevel=error && npm run --silent generate
