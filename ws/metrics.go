package ws

import "github.com/prometheus/client_golang/prometheus"

// Connections is the number of open WebSocket connections of the process's
// hubs (authenticated or not yet), on /metrics as jangada_ws_connections.
var Connections = prometheus.NewGauge(prometheus.GaugeOpts{
	Name: "jangada_ws_connections",
	Help: "Open WebSocket gateway connections in this process.",
})

func init() { prometheus.MustRegister(Connections) }
