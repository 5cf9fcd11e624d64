-- +goose Up
-- Every API process keeps the keys it resolved, with their accounts, for a
-- moment (service.Auth): any change of a key or an account, whoever makes
-- it (the admin API, an operator's CLI or SQL), tells every process to drop
-- them. Both tables change rarely, so the NOTIFY's lock at commit costs
-- the hot paths nothing.
-- +goose StatementBegin
CREATE FUNCTION auth_changed_notify() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('jangada_auth_changed', '');
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
-- +goose StatementEnd
CREATE TRIGGER accounts_auth_changed AFTER UPDATE ON accounts
    FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION auth_changed_notify();
CREATE TRIGGER accounts_auth_deleted AFTER DELETE ON accounts
    FOR EACH ROW EXECUTE FUNCTION auth_changed_notify();
CREATE TRIGGER api_keys_auth_changed AFTER UPDATE ON api_keys
    FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION auth_changed_notify();
CREATE TRIGGER api_keys_auth_deleted AFTER DELETE ON api_keys
    FOR EACH ROW EXECUTE FUNCTION auth_changed_notify();

-- +goose Down
DROP TRIGGER api_keys_auth_deleted ON api_keys;
DROP TRIGGER api_keys_auth_changed ON api_keys;
DROP TRIGGER accounts_auth_deleted ON accounts;
DROP TRIGGER accounts_auth_changed ON accounts;
DROP FUNCTION auth_changed_notify;
