package workflows

import (
	"reflect"
	"runtime"
	"strings"

	"github.com/jangada/jangada/activities"
)

// The activity structs, named by Go reference as the workflows name them.
var (
	chargeActs   *activities.Charges
	transferActs *activities.Transfers
	refundActs   *activities.Refunds
	scheduleActs *activities.Schedules
	webhookActs  *activities.Webhooks
)

// actName is the name the SDK registers a method value under (its method
// name), so that a fake registered under it stands in for the real one.
func actName(fn any) string {
	name := runtime.FuncForPC(reflect.ValueOf(fn).Pointer()).Name()
	return strings.TrimSuffix(name[strings.LastIndex(name, ".")+1:], "-fm")
}
