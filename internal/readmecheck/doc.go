// Package readmecheck holds the test that keeps the README's Go snippets true: each ```go block of
// README.md must be part of code that an Example test runs.
package readmecheck
