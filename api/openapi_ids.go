package api

import "strings"

// operationIDs names each row: the camel case of its path's fixed
// segments (paymentPixCreate); rows that would share a name get their
// method in front, then their parameters behind (getAccountsById).
func operationIDs(routes []Route, docs map[string]Doc) map[string]string {
	base := func(r Route, withMethod, withParams bool) string {
		var words []string
		if withMethod {
			words = append(words, strings.ToLower(r.Method))
		}
		for _, s := range strings.Split(r.Path, "/") {
			if s == "" {
				continue
			}
			if strings.HasPrefix(s, ":") || strings.HasPrefix(s, "*") {
				if withParams {
					words = append(words, "by", s[1:])
				}
				continue
			}
			words = append(words, strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' })...)
		}
		for i := range words {
			if i > 0 {
				words[i] = strings.ToUpper(words[i][:1]) + words[i][1:]
			}
		}
		return strings.Join(words, "")
	}
	// Only the rows whose names clash climb a level, so that a new row
	// renames no other operation but its namesakes.
	level := map[string]int{}
	ids := map[string]string{}
	for range 3 {
		count := map[string]int{}
		for _, r := range routes {
			k := docKey(r)
			ids[k] = base(r, level[k] >= 1, level[k] >= 2)
			count[ids[k]]++
		}
		clash := false
		for _, r := range routes {
			if k := docKey(r); count[ids[k]] > 1 {
				level[k]++
				clash = true
			}
		}
		if !clash {
			break
		}
	}
	for _, r := range routes {
		if id := docs[docKey(r)].OperationID; id != "" {
			ids[docKey(r)] = id
		}
	}
	return ids
}
