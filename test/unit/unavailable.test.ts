// The 503 classification (docs/errors.md, "SERVICE_UNAVAILABLE"): which errors mean the database
// cannot serve right now, and which stay server faults (500). The HTTP behaviour on a real database
// is in the fault suite.

import { inspect } from 'node:util';
import { expect } from 'chai';
import { isUnavailable } from '../../plugin/errors';

/** An error as pg reports a PostgreSQL error: a message and a SQLSTATE `code`. */
function pgError(code: string, message = 'database error'): Error {
  return Object.assign(new Error(message), { code, severity: 'ERROR' });
}

/** As Objection wraps it: `DBError` with the driver's error as `nativeError`. */
function wrapped(native: unknown): Error {
  return Object.assign(new Error('wrapped'), { name: 'DBError', nativeError: native });
}

describe('isUnavailable (503 classification)', function () {
  const unavailable: ReadonlyArray<readonly [string, string]> = [
    ['08006', 'connection_failure'],
    ['08001', 'sqlclient_unable_to_establish_sqlconnection'],
    ['08P01', 'protocol_violation'],
    ['3D000', 'database does not exist (dropped)'],
    ['3F000', 'schema does not exist'],
    ['40001', 'serialization_failure / conflict with recovery'],
    ['40P01', 'deadlock_detected'],
    ['53300', 'too_many_connections'],
    ['53100', 'disk_full'],
    ['53200', 'out_of_memory'],
    ['55000', 'database is not currently accepting connections'],
    ['55006', 'object_in_use'],
    ['55P03', 'lock_not_available (lock_timeout)'],
    ['57014', 'statement timeout'],
    ['57P01', 'admin_shutdown'],
    ['57P02', 'crash_shutdown'],
    ['57P03', 'cannot_connect_now'],
    ['57P04', 'database_dropped'],
    ['58030', 'io_error'],
    ['25006', 'read_only_sql_transaction'],
    ['25P03', 'idle_in_transaction_session_timeout'],
    ['25P04', 'transaction_timeout'],
  ];
  for (const [code, what] of unavailable) {
    it(`${code} ${what} is unavailable, bare and wrapped`, function () {
      expect(isUnavailable(pgError(code))).to.equal(true);
      expect(isUnavailable(wrapped(pgError(code)))).to.equal(true);
      expect(isUnavailable(Object.assign(new Error('outer'), { cause: pgError(code) }))).to.equal(true);
    });
  }

  const faults: ReadonlyArray<readonly [string, string]> = [
    ['22P02', 'invalid_text_representation'],
    ['22003', 'numeric_value_out_of_range'],
    ['23505', 'unique_violation'],
    ['42601', 'syntax_error'],
    ['42883', 'undefined_function (operator does not exist: a statement fault)'],
    ['42501', 'insufficient_privilege'],
    ['54001', 'statement_too_complex'],
    ['0A000', 'feature_not_supported'],
    ['XX000', 'internal_error'],
    ['XX001', 'data_corrupted'],
  ];
  for (const [code, what] of faults) {
    it(`${code} ${what} stays a server fault`, function () {
      expect(isUnavailable(pgError(code))).to.equal(false);
      expect(isUnavailable(wrapped(pgError(code)))).to.equal(false);
    });
  }

  /** As pg and PGlite report a statement error: the SQLSTATE and the PostgreSQL function that raised it. */
  const raisedBy = (code: string, routine: string | undefined, message: string): Error =>
    Object.assign(pgError(code, message), routine === undefined ? {} : { routine, file: 'parse_relation.c', position: '8' });

  it('a table or column gone since start-up is unavailable, told by the routine that raised it', function () {
    for (const error of [
      raisedBy('42P01', 'parserOpenTable', 'relation "members" does not exist'),
      raisedBy('42703', 'errorMissingColumn', 'column members.status does not exist'),
      // The message is translated with lc_messages; the routine is not.
      raisedBy('42P01', 'parserOpenTable', "la relation « members » n'existe pas"),
    ]) {
      expect(isUnavailable(error), error.message).to.equal(true);
      expect(isUnavailable(wrapped(error)), error.message).to.equal(true);
    }
  });

  it('a statement written wrongly is a fault, though it shares the SQLSTATE of a dropped table', function () {
    for (const error of [
      raisedBy('42P01', 'errorMissingRTE', 'missing FROM-clause entry for table "role_user"'),
      raisedBy('42P01', 'errorMissingRTE', 'invalid reference to FROM-clause entry for table "users"'),
      // In English, but without the routine nothing tells a dropped table from a bad statement.
      raisedBy('42P01', undefined, 'relation "members" does not exist'),
      raisedBy('42703', undefined, 'column members.status does not exist'),
      raisedBy('42703', 'ParseFuncOrColumn', 'column members.status does not exist'),
    ]) {
      expect(isUnavailable(error), error.message).to.equal(false);
      expect(isUnavailable(wrapped(error)), error.message).to.equal(false);
    }
  });

  it('Node socket errors are unavailable, also a missing Unix socket while connecting', function () {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']) {
      expect(isUnavailable(Object.assign(new Error(code), { code })), code).to.equal(true);
    }
    expect(
      isUnavailable(Object.assign(new Error('connect ENOENT /run/postgresql/.s.PGSQL.5432'), { code: 'ENOENT', syscall: 'connect' })),
    ).to.equal(true);
    expect(isUnavailable(Object.assign(new Error('open ENOENT'), { code: 'ENOENT', syscall: 'open' }))).to.equal(false);
  });

  it("knex's pool timeout is unavailable; another TimeoutError (a host's AbortSignal.timeout) is not", function () {
    const knexTimeout = Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), {
      name: 'KnexTimeoutError',
    });
    expect(isUnavailable(knexTimeout)).to.equal(true);
    expect(isUnavailable(wrapped(knexTimeout))).to.equal(true);
    expect(isUnavailable(Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' }))).to.equal(false);
  });

  it('driver errors without a code are unavailable by their message, also behind the statement knex puts in front', function () {
    for (const message of [
      'Connection terminated unexpectedly',
      'Connection terminated due to connection timeout',
      'select "users"."id" from "users" - Connection terminated unexpectedly',
      'timeout expired',
      'Query read timeout',
      'Client has encountered a connection error and is not queryable',
      'Client was closed and is not queryable',
      'Unable to acquire a connection',
      'PGlite is closed',
    ]) {
      expect(isUnavailable(new Error(message)), message).to.equal(true);
    }
  });

  it('a message is not read when the error has a SQLSTATE: client values quoted in it change nothing', function () {
    const quoted = pgError('22P02', 'invalid input syntax for type integer: "Connection terminated unexpectedly"');
    expect(isUnavailable(quoted)).to.equal(false);
    expect(isUnavailable(new Error('Connection terminated unexpectedly, said the client'))).to.equal(false);
  });

  it('other values and errors are not unavailable', function () {
    for (const value of [
      undefined,
      null,
      'ECONNREFUSED',
      57014,
      new Error('boom'),
      new TypeError('x is not a function'),
      { code: 'FIELD_NOT_ALLOWED' },
    ]) {
      expect(isUnavailable(value), inspect(value)).to.equal(false);
    }
  });
});
