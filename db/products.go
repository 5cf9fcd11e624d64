package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/store"
)

// productColumns are a product's columns and its TEXT_LINES counts.
const productColumns = `id, account_id, name, sku, description, price, status, deliveries, created_at, updated_at,
	(SELECT count(*) FROM product_lines l WHERE l.product_id = products.id AND l.sale_id IS NULL) AS lines_available,
	(SELECT count(*) FROM product_lines l WHERE l.product_id = products.id AND l.sale_id IS NOT NULL) AS lines_delivered`

// errSKUTaken is the 400 of a sku another live product of the account has.
var errSKUTaken = domain.Invalid("sku", "is already used by another product of this account")

// InsertProduct stores a new product and its TEXT_LINES stock (lines, in
// order) in tx; a sku already used by a live product of the account is a
// 400 naming sku.
func InsertProduct(ctx context.Context, tx *sqlx.Tx, p store.Product, lines []string) (store.Product, error) {
	_, err := tx.ExecContext(ctx, `
		INSERT INTO products (id, account_id, name, sku, description, price, status, deliveries)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		p.ID, p.AccountID, p.Name, p.SKU, p.Description, p.Price, p.Status, p.Deliveries)
	if isUniqueViolation(err) {
		return p, errSKUTaken
	}
	if err != nil {
		return p, fmt.Errorf("db: insert product: %w", err)
	}
	if err := addLines(ctx, tx, p.ID, lines); err != nil {
		return p, err
	}
	return getProduct(ctx, tx, p.AccountID, p.ID, "")
}

// addLines appends lines to a product's TEXT_LINES stock, after every
// line it has had.
func addLines(ctx context.Context, tx *sqlx.Tx, productID string, lines []string) error {
	if len(lines) == 0 {
		return nil
	}
	_, err := tx.ExecContext(ctx, `
		INSERT INTO product_lines (product_id, position, line)
		SELECT $1, (SELECT coalesce(max(position), 0) FROM product_lines WHERE product_id = $1) + t.ord, t.line
		FROM unnest($2::text[]) WITH ORDINALITY AS t(line, ord)`, productID, pq.StringArray(lines))
	if err != nil {
		return fmt.Errorf("db: add product lines: %w", err)
	}
	return nil
}

// GetProduct reads one of the account's live products; another account's
// product is not found.
func GetProduct(ctx context.Context, q sqlx.QueryerContext, accountID, id string) (store.Product, error) {
	return getProduct(ctx, q, accountID, id, "")
}

func getProduct(ctx context.Context, q sqlx.QueryerContext, accountID, id, lock string) (store.Product, error) {
	var p store.Product
	err := sqlx.GetContext(ctx, q, &p, `SELECT `+productColumns+` FROM products
		WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL `+lock, id, accountID)
	if errors.Is(err, sql.ErrNoRows) {
		return p, domain.NotFound("product")
	}
	if err != nil {
		return p, fmt.Errorf("db: get product: %w", err)
	}
	return p, nil
}

// LockProducts reads the account's live products among ids under their
// row locks, in id order (so that two sales of the same products never
// deadlock): a checkout holds them while it counts what it may still sell.
// Ids not found (another account's, deleted) are simply absent.
func LockProducts(ctx context.Context, tx *sqlx.Tx, accountID string, ids []string) ([]store.Product, error) {
	out := []store.Product{}
	err := tx.SelectContext(ctx, &out, `SELECT `+productColumns+` FROM products
		WHERE account_id = $1 AND id = ANY($2) AND deleted_at IS NULL ORDER BY id FOR UPDATE`,
		accountID, pq.StringArray(ids))
	if err != nil {
		return nil, fmt.Errorf("db: lock products: %w", err)
	}
	return out, nil
}

// ProductsOf reads the account's live products among ids, in id order,
// without locking them (a checkout prices its link with them before it
// takes their locks; holdProducts checks the price again under them).
func ProductsOf(ctx context.Context, q sqlx.QueryerContext, accountID string, ids []string) ([]store.Product, error) {
	out := []store.Product{}
	err := sqlx.SelectContext(ctx, q, &out, `SELECT `+productColumns+` FROM products
		WHERE account_id = $1 AND id = ANY($2) AND deleted_at IS NULL ORDER BY id`,
		accountID, pq.StringArray(ids))
	if err != nil {
		return nil, fmt.Errorf("db: read products: %w", err)
	}
	return out, nil
}

// MissingProducts is the ids among ids that are not live products of the
// account (for a request that names products: a coupon's productIds).
func MissingProducts(ctx context.Context, q sqlx.QueryerContext, accountID string, ids []string) ([]string, error) {
	var missing []string
	err := sqlx.SelectContext(ctx, q, &missing, `SELECT x FROM unnest($2::text[]) AS x
		WHERE NOT EXISTS (SELECT 1 FROM products WHERE id = x AND account_id = $1 AND deleted_at IS NULL)`,
		accountID, pq.StringArray(ids))
	if err != nil {
		return nil, fmt.Errorf("db: missing products: %w", err)
	}
	return missing, nil
}

// ListProducts returns one page of the account's live products that f
// selects, newest first, and how many there are.
func ListProducts(ctx context.Context, q sqlx.QueryerContext, accountID string, f store.ProductFilter) ([]store.Product, int, error) {
	conds := []string{"account_id = $1", "deleted_at IS NULL"}
	args := []any{accountID}
	if f.Status != "" {
		args = append(args, f.Status)
		conds = append(conds, fmt.Sprintf("status = $%d", len(args)))
	}
	if f.Search != "" {
		args = append(args, likePattern(f.Search))
		n := len(args)
		conds = append(conds, fmt.Sprintf("(name ILIKE $%d OR sku ILIKE $%d OR description ILIKE $%d)", n, n, n))
	}
	return listPage[store.Product](ctx, q, "products", productColumns, "products", strings.Join(conds, " AND "), args, f.Page, f.PageSize)
}

// UpdateProduct applies patch to one of the account's live products under
// its row lock; patch.Lines, when set, replaces the lines not handed out
// yet (a sale in flight holds the same lock, so none is replaced under
// it).
func UpdateProduct(ctx context.Context, d *sqlx.DB, accountID, id string, patch store.ProductPatch) (store.Product, error) {
	var out store.Product
	err := InTx(ctx, d, func(tx *sqlx.Tx) error {
		p, err := getProduct(ctx, tx, accountID, id, "FOR UPDATE")
		if err != nil {
			return err
		}
		p = p.Apply(patch)
		_, err = tx.ExecContext(ctx, `
			UPDATE products SET name = $2, sku = $3, description = $4, price = $5, status = $6, deliveries = $7,
				updated_at = now()
			WHERE id = $1`, p.ID, p.Name, p.SKU, p.Description, p.Price, p.Status, p.Deliveries)
		if isUniqueViolation(err) {
			return errSKUTaken
		}
		if err != nil {
			return fmt.Errorf("db: update product: %w", err)
		}
		if patch.Lines != nil {
			if _, err := tx.ExecContext(ctx, `DELETE FROM product_lines WHERE product_id = $1 AND sale_id IS NULL`, p.ID); err != nil {
				return fmt.Errorf("db: drop product lines: %w", err)
			}
			if err := addLines(ctx, tx, p.ID, *patch.Lines); err != nil {
				return err
			}
		}
		out, err = getProduct(ctx, tx, accountID, id, "")
		return err
	})
	return out, err
}

// DeleteProduct deletes one of the account's live products. The row and
// its lines stay (the sales that name them keep them); its sku is free.
func DeleteProduct(ctx context.Context, q sqlx.ExecerContext, accountID, id string) error {
	res, err := q.ExecContext(ctx, `UPDATE products SET deleted_at = now(), updated_at = now()
		WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL`, id, accountID)
	if err != nil {
		return fmt.Errorf("db: delete product: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return domain.NotFound("product")
	}
	return nil
}

// TakeProductLine hands the next line of a TEXT_LINES product to a sale,
// inside the caller's transaction (a checkout session's paid transition,
// saleID its session id). It is idempotent on the sale: asked again, it
// answers the line that sale got. Takes of one product queue on the
// product's row lock, so two sales never get the same line; with every
// line handed out it returns domain.ErrNoLinesLeft and writes nothing. A
// sale whose session still holds its line (saleHolds) takes the next one;
// a sale whose hold lapsed takes one only if a line is left beyond those
// the OPEN sessions hold (ProductHeld), else ErrNoLinesLeft: a late
// payment never takes the line a checkout made since is holding.
func TakeProductLine(ctx context.Context, tx *sqlx.Tx, productID, saleID string) (string, error) {
	var locked string
	err := tx.GetContext(ctx, &locked, `SELECT id FROM products WHERE id = $1 FOR UPDATE`, productID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", domain.NotFound("product")
	}
	if err != nil {
		return "", fmt.Errorf("db: lock product: %w", err)
	}
	var line string
	err = tx.GetContext(ctx, &line, `SELECT line FROM product_lines WHERE product_id = $1 AND sale_id = $2`, productID, saleID)
	if err == nil {
		return line, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("db: find the sale's line: %w", err)
	}
	holds, err := saleHolds(ctx, tx, saleID)
	if err != nil {
		return "", err
	}
	if !holds {
		var left int
		if err := tx.GetContext(ctx, &left, `SELECT count(*) FROM product_lines WHERE product_id = $1 AND sale_id IS NULL`, productID); err != nil {
			return "", fmt.Errorf("db: count product lines left: %w", err)
		}
		held, err := ProductHeld(ctx, tx, productID)
		if err != nil {
			return "", err
		}
		if left-held <= 0 {
			return "", store.ErrNoLinesLeft
		}
	}
	err = tx.GetContext(ctx, &line, `
		UPDATE product_lines SET sale_id = $2, taken_at = now()
		WHERE product_id = $1 AND position = (
			SELECT min(position) FROM product_lines WHERE product_id = $1 AND sale_id IS NULL)
		RETURNING line`, productID, saleID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", store.ErrNoLinesLeft
	}
	if err != nil {
		return "", fmt.Errorf("db: take a product line: %w", err)
	}
	return line, nil
}
