package procs

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"go.temporal.io/server/api/adminservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// ClusterView is what a cluster's membership says through one frontend's
// admin API: how many hosts each service's ring holds, and which history
// host owns how many shards.
type ClusterView struct {
	// Rings counts the members of each service's ring.
	Rings map[string]int
	// Shards counts the history shards each history host owns.
	Shards map[string]int
}

// String is the view on one line, hosts sorted.
func (v ClusterView) String() string {
	var rings, shards []string
	for r, n := range v.Rings {
		rings = append(rings, fmt.Sprintf("%s %d", r, n))
	}
	for h, n := range v.Shards {
		shards = append(shards, fmt.Sprintf("%s %d", h, n))
	}
	sort.Strings(rings)
	sort.Strings(shards)
	return "rings: " + strings.Join(rings, ", ") + "; shards: " + strings.Join(shards, ", ")
}

// Describe reads the membership and the shard owners through the admin
// API of the frontend at addr (DescribeCluster, then DescribeHistoryHost
// of every history host: what `temporal operator cluster describe` and
// tdbg show).
func Describe(ctx context.Context, addr string) (ClusterView, error) {
	v := ClusterView{Rings: map[string]int{}, Shards: map[string]int{}}
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return v, err
	}
	defer conn.Close()
	admin := adminservice.NewAdminServiceClient(conn)
	res, err := admin.DescribeCluster(ctx, &adminservice.DescribeClusterRequest{})
	if err != nil {
		return v, fmt.Errorf("describe cluster at %s: %w", addr, err)
	}
	for _, ring := range res.GetMembershipInfo().GetRings() {
		v.Rings[ring.GetRole()] = int(ring.GetMemberCount())
		if ring.GetRole() != "history" {
			continue
		}
		for _, m := range ring.GetMembers() {
			h, err := admin.DescribeHistoryHost(ctx, &adminservice.DescribeHistoryHostRequest{HostAddress: m.GetIdentity()})
			if err != nil {
				return v, fmt.Errorf("describe history host %s: %w", m.GetIdentity(), err)
			}
			v.Shards[m.GetIdentity()] = len(h.GetShardIds())
		}
	}
	return v, nil
}
