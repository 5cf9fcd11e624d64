# Production image: the jangada binary without the embedded Temporal server
# (that lives behind the `devserver` build tag and is for `make run` only).
FROM golang:1.26-bookworm AS build
WORKDIR /src
ENV GOTOOLCHAIN=local CGO_ENABLED=0
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN go build -trimpath -ldflags="-s -w" -o /out/jangada ./cmd/jangada

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/jangada /usr/local/bin/jangada
EXPOSE 8080 8081
USER nonroot
ENTRYPOINT ["/usr/local/bin/jangada"]
CMD ["api"]
