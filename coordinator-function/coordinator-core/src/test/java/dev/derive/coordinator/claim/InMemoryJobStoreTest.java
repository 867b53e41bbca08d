package dev.derive.coordinator.claim;

/** The job store contract on the in-memory store, proving it keeps DynamoDB's conditions. */
class InMemoryJobStoreTest extends JobStoreContract {
  private final JobStore store = new InMemoryJobStore();

  @Override
  protected JobStore store() {
    return store;
  }
}
