/**
 * The words of <delegated-keys>, in English and Arabic; every key is replaceable with
 * `setStrings(locale, {...})` (src/elements/shared/i18n.ts). Error sentences say what to do next.
 */
import { registerDefaultStrings } from '../shared/i18n.ts';
import type { DelegatedKeysErrorCode, FieldProblem } from './delegated-keys.machine.ts';

type Keys =
  | 'delegated-keys.title'
  | 'delegated-keys.description'
  | 'delegated-keys.loading'
  | 'delegated-keys.empty'
  | 'delegated-keys.new'
  | 'delegated-keys.retry'
  | 'delegated-keys.status.ACTIVE'
  | 'delegated-keys.status.PENDING'
  | 'delegated-keys.status.REVOKED'
  | 'delegated-keys.created-on'
  | 'delegated-keys.public-key'
  | 'delegated-keys.limits'
  | 'delegated-keys.no-limits'
  | 'delegated-keys.per-transaction'
  | 'delegated-keys.immutable'
  | 'delegated-keys.revoke'
  | 'delegated-keys.revoke-confirm'
  | 'delegated-keys.revoke-yes'
  | 'delegated-keys.revoking'
  | 'delegated-keys.cancel'
  | 'delegated-keys.form-title'
  | 'delegated-keys.nickname'
  | 'delegated-keys.nickname-hint'
  | 'delegated-keys.limits-legend'
  | 'delegated-keys.limits-hint'
  | 'delegated-keys.currency'
  | 'delegated-keys.amount'
  | 'delegated-keys.amount-preview'
  | 'delegated-keys.add-limit'
  | 'delegated-keys.remove-limit'
  | 'delegated-keys.create'
  | 'delegated-keys.creating'
  | 'delegated-keys.created'
  | 'delegated-keys.revoked'
  | 'delegated-keys.active-exists'
  | 'delegated-keys.missing-ids'
  | `delegated-keys.field.${FieldProblem}`
  | `delegated-keys.error.${DelegatedKeysErrorCode}`;

const en: Record<Keys, string> = {
  'delegated-keys.title': 'Delegated keys',
  'delegated-keys.description': 'A delegated key lets card payments be approved without you signing each one. It can only pay from this card, within the limits you set.',
  'delegated-keys.loading': 'Loading keys…',
  'delegated-keys.empty': 'This card has no delegated keys yet.',
  'delegated-keys.new': 'New key',
  'delegated-keys.retry': 'Try again',
  'delegated-keys.status.ACTIVE': 'Active',
  'delegated-keys.status.PENDING': 'Pending',
  'delegated-keys.status.REVOKED': 'Revoked',
  'delegated-keys.created-on': 'Created {date}',
  'delegated-keys.public-key': 'Public key',
  'delegated-keys.limits': 'Spending limits',
  'delegated-keys.no-limits': 'No spending limits',
  'delegated-keys.per-transaction': '{amount} per payment',
  'delegated-keys.immutable': 'Limits can’t be changed. To change them, revoke this key and create a new one.',
  'delegated-keys.revoke': 'Revoke',
  'delegated-keys.revoke-confirm': 'Revoke “{name}”? Payments can no longer be approved with it. This can’t be undone.',
  'delegated-keys.revoke-yes': 'Revoke key',
  'delegated-keys.revoking': 'Revoking…',
  'delegated-keys.cancel': 'Cancel',
  'delegated-keys.form-title': 'New delegated key',
  'delegated-keys.nickname': 'Name',
  'delegated-keys.nickname-hint': 'So you can recognise it later, up to 256 characters.',
  'delegated-keys.limits-legend': 'Limit per payment (optional)',
  'delegated-keys.limits-hint': 'One limit per currency, in the smallest unit (cents for USD). A currency without a limit is unlimited. Limits can’t be changed later.',
  'delegated-keys.currency': 'Currency',
  'delegated-keys.amount': 'Maximum (smallest unit)',
  'delegated-keys.amount-preview': '= {amount}',
  'delegated-keys.add-limit': 'Add a limit',
  'delegated-keys.remove-limit': 'Remove this limit',
  'delegated-keys.create': 'Create key',
  'delegated-keys.creating': 'Creating… confirm with your wallet',
  'delegated-keys.created': 'Key “{name}” created. It is active now.',
  'delegated-keys.revoked': 'Key “{name}” revoked.',
  'delegated-keys.active-exists': 'This card already has an active key. Revoke it before creating another.',
  'delegated-keys.missing-ids': 'No card or wallet account is selected.',
  'delegated-keys.field.required': 'This field is required.',
  'delegated-keys.field.too_long': 'Use 256 characters or fewer.',
  'delegated-keys.field.invalid_currency': 'Use a currency code of 3 to 16 letters or digits, such as USD.',
  'delegated-keys.field.duplicate_currency': 'This currency already has a limit. Keep one limit per currency.',
  'delegated-keys.field.invalid_amount': 'Enter a whole number of at least 1.',
  'delegated-keys.field.too_many': 'Too many limits.',
  'delegated-keys.error.conflict': 'This card already has an active key. Revoke it first, then create the new one.',
  'delegated-keys.error.not_found': 'This card isn’t linked to your wallet any more, or the key no longer exists. Reload and try again.',
  'delegated-keys.error.invalid': 'The key couldn’t be created with these details. Check the name and limits.',
  'delegated-keys.error.not_active': 'This key is no longer active, so there is nothing to revoke.',
  'delegated-keys.error.session_required': 'Sign in to your wallet first: creating a key needs your confirmation.',
  'delegated-keys.error.forbidden': 'You can’t manage keys for this card in this session.',
  'delegated-keys.error.rate_limited': 'Too many requests. Wait a moment, then try again.',
  'delegated-keys.error.server': 'Something went wrong on our side. Try again in a moment.',
  'delegated-keys.error.network': 'We couldn’t reach the server. Check your connection and try again.',
  'delegated-keys.error.retry_exhausted': 'The confirmation took too long. Try again.',
  'delegated-keys.error.unexpected': 'Something unexpected happened. Try again.',
};

const ar: Record<Keys, string> = {
  'delegated-keys.title': 'المفاتيح المفوَّضة',
  'delegated-keys.description': 'يتيح المفتاح المفوَّض اعتماد مدفوعات البطاقة دون أن توقّع كل دفعة بنفسك. لا يدفع إلا من هذه البطاقة وضمن الحدود التي تضعها.',
  'delegated-keys.loading': 'جارٍ تحميل المفاتيح…',
  'delegated-keys.empty': 'لا توجد مفاتيح مفوَّضة لهذه البطاقة بعد.',
  'delegated-keys.new': 'مفتاح جديد',
  'delegated-keys.retry': 'إعادة المحاولة',
  'delegated-keys.status.ACTIVE': 'نشط',
  'delegated-keys.status.PENDING': 'قيد الانتظار',
  'delegated-keys.status.REVOKED': 'ملغى',
  'delegated-keys.created-on': 'أُنشئ في {date}',
  'delegated-keys.public-key': 'المفتاح العام',
  'delegated-keys.limits': 'حدود الإنفاق',
  'delegated-keys.no-limits': 'بلا حدود إنفاق',
  'delegated-keys.per-transaction': '{amount} لكل دفعة',
  'delegated-keys.immutable': 'لا يمكن تغيير الحدود. لتغييرها، ألغِ هذا المفتاح وأنشئ مفتاحًا جديدًا.',
  'delegated-keys.revoke': 'إلغاء',
  'delegated-keys.revoke-confirm': 'هل تريد إلغاء «{name}»؟ لن يعود بالإمكان اعتماد المدفوعات به. لا يمكن التراجع عن ذلك.',
  'delegated-keys.revoke-yes': 'إلغاء المفتاح',
  'delegated-keys.revoking': 'جارٍ الإلغاء…',
  'delegated-keys.cancel': 'تراجع',
  'delegated-keys.form-title': 'مفتاح مفوَّض جديد',
  'delegated-keys.nickname': 'الاسم',
  'delegated-keys.nickname-hint': 'لتتعرّف عليه لاحقًا، حتى 256 حرفًا.',
  'delegated-keys.limits-legend': 'الحد لكل دفعة (اختياري)',
  'delegated-keys.limits-hint': 'حدّ واحد لكل عملة، بأصغر وحدة (السنت للدولار). العملة التي لا حدّ لها غير محدودة. لا يمكن تغيير الحدود لاحقًا.',
  'delegated-keys.currency': 'العملة',
  'delegated-keys.amount': 'الحد الأقصى (بأصغر وحدة)',
  'delegated-keys.amount-preview': '= {amount}',
  'delegated-keys.add-limit': 'إضافة حد',
  'delegated-keys.remove-limit': 'إزالة هذا الحد',
  'delegated-keys.create': 'إنشاء المفتاح',
  'delegated-keys.creating': 'جارٍ الإنشاء… أكّد من محفظتك',
  'delegated-keys.created': 'أُنشئ المفتاح «{name}» وهو نشط الآن.',
  'delegated-keys.revoked': 'أُلغي المفتاح «{name}».',
  'delegated-keys.active-exists': 'لهذه البطاقة مفتاح نشط بالفعل. ألغِه قبل إنشاء مفتاح آخر.',
  'delegated-keys.missing-ids': 'لم يتم اختيار بطاقة أو حساب محفظة.',
  'delegated-keys.field.required': 'هذا الحقل مطلوب.',
  'delegated-keys.field.too_long': 'استخدم 256 حرفًا أو أقل.',
  'delegated-keys.field.invalid_currency': 'استخدم رمز عملة من 3 إلى 16 حرفًا أو رقمًا، مثل USD.',
  'delegated-keys.field.duplicate_currency': 'لهذه العملة حدّ بالفعل. اكتفِ بحدّ واحد لكل عملة.',
  'delegated-keys.field.invalid_amount': 'أدخل عددًا صحيحًا لا يقل عن 1.',
  'delegated-keys.field.too_many': 'عدد الحدود كبير جدًا.',
  'delegated-keys.error.conflict': 'لهذه البطاقة مفتاح نشط بالفعل. ألغِه أولًا ثم أنشئ المفتاح الجديد.',
  'delegated-keys.error.not_found': 'لم تعد هذه البطاقة مرتبطة بمحفظتك، أو لم يعد المفتاح موجودًا. أعد التحميل وحاول مجددًا.',
  'delegated-keys.error.invalid': 'تعذّر إنشاء المفتاح بهذه البيانات. تحقّق من الاسم والحدود.',
  'delegated-keys.error.not_active': 'لم يعد هذا المفتاح نشطًا، فلا حاجة لإلغائه.',
  'delegated-keys.error.session_required': 'سجّل الدخول إلى محفظتك أولًا: إنشاء مفتاح يحتاج إلى تأكيدك.',
  'delegated-keys.error.forbidden': 'لا يمكنك إدارة مفاتيح هذه البطاقة في هذه الجلسة.',
  'delegated-keys.error.rate_limited': 'طلبات كثيرة جدًا. انتظر قليلًا ثم أعد المحاولة.',
  'delegated-keys.error.server': 'حدث خطأ من جهتنا. أعد المحاولة بعد قليل.',
  'delegated-keys.error.network': 'تعذّر الوصول إلى الخادم. تحقّق من اتصالك ثم أعد المحاولة.',
  'delegated-keys.error.retry_exhausted': 'استغرق التأكيد وقتًا طويلًا. أعد المحاولة.',
  'delegated-keys.error.unexpected': 'حدث أمر غير متوقع. أعد المحاولة.',
};

registerDefaultStrings({ en, ar });

export const delegatedKeysStrings = { en, ar } as const;
