import DataOperation
import Testing

@Suite struct MigratorTests {
  @Test func anEmptyDatabaseMigratesToTheCurrentVersion() throws {
    let context = try Database.inMemory()
    #expect(try Migrator.currentVersion().operate(in: context) == 0)
    #expect(try schema.migrate().operate(in: context) == 2)
    #expect(try Migrator.currentVersion().operate(in: context) == 2)
    #expect(try logged(1).operate(in: context) == 1)  // the tables of both steps exist
    #expect(try schema.migrate().operate(in: context) == 2)  // running again is a no-op
  }

  @Test func aPartlyMigratedDatabaseRunsOnlyTheMissingSteps() throws {
    let context = try Database.inMemory()
    _ = try Migrator([schema.migrations[0]]).migrate().operate(in: context)
    _ = try Repository<Author>().add { $0.name = "Kept" }.operate(in: context)
    #expect(try schema.migrate().operate(in: context) == 2)
    #expect(try Repository<Author>().fetch().operate(in: context).map(\.name) == ["Kept"])
  }

  @Test func aDatabaseFromANewerSchemaIsRefusedAndLeftUnchanged() throws {
    let folder = TemporaryFolder()
    let path = folder.path + "/newer.db"
    let context = try Database(path: path)
    try DataOperation<Void, DatabaseError> { connection throws(DatabaseError) in
      try connection.executeScript("CREATE TABLE future (x); PRAGMA user_version = 9;")
    }.operate(in: context)
    #expect(throws: DatabaseError.schemaTooNew(found: 9, supported: 2)) { try schema.migrate().operate(in: context) }
    let tables = try DataOperation<[String], DatabaseError> { connection throws(DatabaseError) in
      try connection.all("SELECT name FROM sqlite_schema ORDER BY name") { row throws(DatabaseError) in try row.string("name") }
    }.operate(in: context)
    #expect(tables == ["future"])
    #expect(try Migrator.currentVersion().operate(in: context) == 9)
  }

  @Test func aFailingStepRollsBackToTheLastWholeVersion() throws {
    let context = try Database.inMemory()
    let broken = Migrator([
      schema.migrations[0],
      Migration(version: 2, sql: "CREATE TABLE half (x); CREATE TABLE half (y);"),
    ])
    #expect(throws: DatabaseError.self) { try broken.migrate().operate(in: context) }
    #expect(try Migrator.currentVersion().operate(in: context) == 1)
    let half = try DataOperation<SQLValue, DatabaseError> { connection throws(DatabaseError) in
      try connection.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'half'")
    }.operate(in: context)
    #expect(half == .integer(0))
  }
}
