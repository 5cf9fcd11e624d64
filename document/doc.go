// Package document validates Brazilian taxpayer identifiers: CPF for people
// and CNPJ for companies, including the alphanumeric CNPJ issued from July
// 2026. Checking the check digits locally catches typos before a payment
// reaches a provider that would reject it later and less clearly.
package document
