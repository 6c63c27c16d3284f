// The host's models as its own code uses them: a member's JSON masks the address of staff (other
// members' addresses are shown), and an account's uuid key is the host's own business, never shown.
import { Model, type Pojo } from 'objection';

export class Member extends Model {
  static override tableName = 'members';

  override $formatJson(json: Pojo) {
    const formatted = super.$formatJson(json);
    if (typeof formatted.email === 'string') formatted.email = formatted.email.replace(/^[^@]*@staff\.example$/, '***@staff.example');
    return formatted;
  }

  static getProjectableFields() {
    return ['id', 'name', 'email'];
  }
}

export class Account extends Model {
  static override tableName = 'accounts';

  // The primary key (a uuid) is not projectable: clients see names and plans only.
  static getProjectableFields() {
    return ['name', 'plan'];
  }
}
