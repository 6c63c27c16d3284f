// The host's models as its own code uses them: a member (table `members`) in a tenant, roles whose
// members are reached through the join table `role_user` under the relation name `users`.
import { Model } from 'objection';

export class Tenant extends Model {
  static override tableName = 'tenants';
}

export class Member extends Model {
  static override tableName = 'members';

  // tenant_id stays the host's.
  static getProjectableFields() {
    return ['id', 'name', 'role'];
  }

  static getFilterableFields() {
    return ['id', 'name', 'role'];
  }

  static getExpandableRelations() {
    return { roles: { options: { projectable_fields: ['id', 'name'] } } };
  }

  static override get relationMappings() {
    return {
      roles: {
        relation: Model.ManyToManyRelation,
        modelClass: Role,
        join: { from: 'members.id', through: { from: 'role_user.member_id', to: 'role_user.role_id' }, to: 'roles.id' },
      },
    };
  }
}

export class Role extends Model {
  static override tableName = 'roles';

  static getExpandableRelations() {
    return {
      users: {
        options: { projectable_fields: ['id', 'name', 'role'], filterable_fields: ['name', 'role'], sortable_fields: ['name'] },
      },
    };
  }

  static override get relationMappings() {
    return {
      users: {
        relation: Model.ManyToManyRelation,
        modelClass: Member,
        join: { from: 'roles.id', through: { from: 'role_user.role_id', to: 'role_user.member_id' }, to: 'members.id' },
      },
    };
  }
}
